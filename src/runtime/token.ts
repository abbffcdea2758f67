/**
 * Token custody. A token handed down by the desktop shell (SVC_API_TOKEN) is
 * used; otherwise 32 random bytes are minted at every start. The token file
 * beside the daemon lock lets local clients (the CLI, the MCP server) find it.
 */
import { SvcError } from '../errors.js';
import type { Random } from '../random.js';
import type { Paths } from '../paths.js';
import { readOwnedFile, removeOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';

export function chooseToken(handedDown: string | undefined, random: Random): string {
  if (handedDown === undefined) return random.bytes(32).toString('base64url');
  if (!/^[\x21-\x7e]{32,512}$/.test(handedDown)) {
    throw new SvcError(400, 'token_unusable', 'SVC_API_TOKEN must be 32 to 512 printable characters without spaces; unset it to let svc mint one.');
  }
  return handedDown;
}

export function publishToken(paths: Paths, port: number, token: string): void {
  writeOwnerOnlyFile(paths.tokenFile(port), token);
}

export function withdrawToken(paths: Paths, port: number): void {
  removeOwnedFile(paths.tokenFile(port));
}

export function readPublishedToken(paths: Paths, port: number): string | undefined {
  const bytes = readOwnedFile(paths.tokenFile(port));
  const token = bytes?.toString('utf8').trim();
  return token ? token : undefined;
}

export function publishPort(paths: Paths, port: number): void {
  writeOwnerOnlyFile(paths.portFile, `${port}\n`);
}

export function readPublishedPort(paths: Paths): number | undefined {
  const text = readOwnedFile(paths.portFile)?.toString('utf8').trim();
  return text && /^\d{1,5}$/.test(text) ? Number(text) : undefined;
}

/** Remove the port file only if it still names this server's port. */
export function withdrawPort(paths: Paths, port: number): void {
  if (readPublishedPort(paths) === port) removeOwnedFile(paths.portFile);
}
