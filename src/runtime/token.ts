/**
 * Token custody. A token handed down by the desktop shell (SVC_API_TOKEN) is
 * used; otherwise 32 random bytes are minted at every start. The token file
 * beside the daemon lock lets local clients (the CLI, the MCP server) find it.
 */
import { SvcError } from '../errors.js';
import type { Random } from '../random.js';
import type { Paths } from '../paths.js';
import { readOwnedFile, removeOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';
import type { PidProbe } from '../util/pid.js';
import { identityIn, ownerStands, ownOwner } from '../claims/owner.js';
import type { ProcessIdentity } from '../claims/staleness.js';

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

/** What a serving process publishes about itself for the clients of its data directory; who the process is where the system says. */
export interface PublishedPort extends Partial<ProcessIdentity> {
  port: number;
  pid: number;
  data_dir: string;
  started_at_utc: string;
}

export function readPublishedPort(paths: Paths): PublishedPort | undefined {
  const text = readOwnedFile(paths.portFile)?.toString('utf8');
  if (!text) return undefined;
  try {
    const p = JSON.parse(text) as PublishedPort;
    return Number.isInteger(p.port) && p.port > 0 && p.port <= 65535 && Number.isInteger(p.pid) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** A port file whose process is gone (killed with -9, power cut; its pid now run by another process) names no server. */
export function isStale(published: PublishedPort, alive?: PidProbe): boolean {
  return !ownerStands({ pid: published.pid, ...identityIn(published) }, null, alive);
}

/**
 * Publish this server's port for its data directory, unless another live
 * server of the same directory already has: its file is never overwritten.
 * Answers whether this server published.
 */
export function publishPort(paths: Paths, port: number, startedAtUtc: string): boolean {
  const current = readPublishedPort(paths);
  if (current && current.pid !== process.pid && !isStale(current)) return false;
  const { pid, ...identity } = ownOwner();
  writeOwnerOnlyFile(paths.portFile, JSON.stringify({ port, pid, data_dir: paths.dataDir, started_at_utc: startedAtUtc, ...identity } satisfies PublishedPort) + '\n');
  return true;
}

/** Remove the port file only if it still names this server (this process and port). */
export function withdrawPort(paths: Paths, port: number): void {
  const current = readPublishedPort(paths);
  if (current && current.port === port && current.pid === process.pid) removeOwnedFile(paths.portFile);
}
