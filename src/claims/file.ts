/**
 * The file backend of claims: an owner-only file created with O_EXCL, so that
 * of processes claiming at once exactly one wins, holding its owner (JSON
 * with pid and, where the system says, boot id and start time: claims/owner.ts).
 * A stale claim is moved aside before it is taken over, so of two processes
 * taking over at once only one wins; a live claim that another process put
 * there between the read and the move is put back. Each kind of claim file
 * (the daemon lock, the scheduler lease, the restore's staging lock) says how
 * its bytes are judged: this process's, a live owner's, or stale.
 */
import fs from 'node:fs';
import { createOwnedFileExclusive, readOwnedFile } from '../util/owned-files.js';

export type FileVerdict = 'mine' | 'live' | 'stale';

export interface FileClaimRule {
  /** Whose the claim in these bytes is. */
  judge(bytes: Buffer): FileVerdict;
  /** The file is there but cannot be read safely (a link, a folder, another user's): throw, or try again. */
  unreadable(err: unknown): 'retry';
}

/** Taken; or held (by this process or a live owner) with the bytes that say so; or still contended after every attempt. */
export type FileTake = { taken: true } | { taken: false; by: 'mine' | 'live'; bytes: Buffer } | { taken: false; by: 'contended' };

/** The claim file's bytes: undefined when there is none; the rule decides about one that cannot be read. */
function readClaim(file: string, rule: FileClaimRule): Buffer | undefined | 'retry' {
  try {
    return readOwnedFile(file);
  } catch (err) {
    return rule.unreadable(err);
  }
}

/**
 * Claim `file` with `text`, or say who holds it. `tag` makes the name of the
 * stale file moved aside this process's own.
 */
export function takeFileClaim(file: string, text: string, rule: FileClaimRule, tag: string = String(process.pid), attempts = 3): FileTake {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (createOwnedFileExclusive(file, text)) return { taken: true };
    const bytes = readClaim(file, rule);
    if (bytes === undefined || bytes === 'retry') continue; // released meanwhile, or the rule says try again
    const verdict = rule.judge(bytes);
    if (verdict !== 'stale') return { taken: false, by: verdict, bytes };
    const aside = `${file}.stale-${tag}`;
    try {
      fs.renameSync(file, aside);
    } catch {
      continue;
    }
    // Between reading and moving, another process may have replaced the stale claim with its own: put it back.
    let moved: Buffer | undefined;
    try {
      moved = readOwnedFile(aside);
    } catch {
      moved = undefined;
    }
    if (moved && !moved.equals(bytes) && rule.judge(moved) !== 'stale') {
      try {
        fs.linkSync(aside, file);
      } catch {
        // someone else holds it now
      }
      fs.rmSync(aside, { force: true });
      const now = readClaim(file, rule);
      return { taken: false, by: 'live', bytes: Buffer.isBuffer(now) ? now : moved };
    }
    fs.rmSync(aside, { force: true });
  }
  return { taken: false, by: 'contended' };
}

/** The claim's bytes when this process holds it, else undefined. */
function heldBytes(file: string, rule: FileClaimRule): Buffer | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = readOwnedFile(file);
  } catch {
    return undefined;
  }
  return bytes && rule.judge(bytes) === 'mine' ? bytes : undefined;
}

/** Still this process's? Touches the file when so (a heartbeat its holder keeps). */
export function renewFileClaim(file: string, rule: FileClaimRule): boolean {
  if (!heldBytes(file, rule)) return false;
  const now = new Date();
  try {
    fs.lutimesSync(file, now, now);
  } catch {
    return false;
  }
  return true;
}

/** Remove the claim only while it is this process's (a takeover may have replaced it). */
export function releaseFileClaim(file: string, rule: FileClaimRule): void {
  if (heldBytes(file, rule)) fs.rmSync(file, { force: true });
}

/** Whether this process holds the claim now. */
export function holdsFileClaim(file: string, rule: FileClaimRule): boolean {
  return heldBytes(file, rule) !== undefined;
}
