/**
 * The scheduler lease of a data directory: `<data dir>/scheduler.lease`,
 * owner-only, created with O_EXCL, so that of the processes serving one data
 * directory (a `svc serve`, the daemon, a second serve) exactly one schedules
 * routines; the others wait on standby and say who holds it. The holder
 * touches the file on every scheduler tick (and so notices when it lost it).
 * A lease is stale — and may be taken over — by the rule every claim follows
 * (claims/staleness.ts): it records who its process is (the boot's id and
 * the process's start time) where the system says, so a pid now run by
 * another process, or a lease from before a reboot, is stale, and a
 * wall-clock jump never makes a live lease look stale; a lease written
 * without them (an older svc, no /proc) is judged by its pid and the time it
 * was last written. Age alone never makes it stale: after the machine slept,
 * every lease is old and its holder is alive. Taken, renewed and released
 * through the claims' file backend (claims/file.ts): takeover moves the stale
 * file aside first, so of two standbys taking over at once only one wins.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SvcError } from '../errors.js';
import { createOwnedFileExclusive, ensureOwnedDir, readOwnedFile } from '../util/owned-files.js';
import type { PidProbe } from '../util/pid.js';
import { identityIn, ownerStands, ownOwner } from '../claims/owner.js';
import { releaseFileClaim, renewFileClaim, takeFileClaim, type FileClaimRule } from '../claims/file.js';
import type { ProcessIdentity } from '../claims/staleness.js';
import type { LeaseHolder } from '../wire/health.js';

export const LEASE_FILE = 'scheduler.lease';

export type { LeaseHolder } from '../wire/health.js';

/** What the file holds: the holder and, where the system says, who its process is (never shown in answers). */
type LeaseFile = LeaseHolder & Partial<ProcessIdentity>;

/** The holder as answers show it, without the process identity the file records. */
const shown = ({ pid, runtime_id, role, port, since_utc }: LeaseFile): LeaseHolder => ({ pid, runtime_id, role, port, since_utc });

export interface Lease {
  /** Take the lease, or keep it: null when this process holds it now, else the live holder. */
  acquire(): LeaseHolder | null;
  /** Still ours? Touches it when so (the heartbeat). */
  renew(): boolean;
  /** Who holds it now; null when nobody does or the holder is gone (stale). */
  holder(): LeaseHolder | null;
  /** Note the port once this process listens. */
  recordPort(port: number): void;
  release(): void;
}


function parse(bytes: Buffer): LeaseFile {
  try {
    const held = JSON.parse(bytes.toString('utf8')) as LeaseFile;
    if (held !== null && Number.isInteger(held.pid) && typeof held.runtime_id === 'string') return held;
  } catch {
    // being written or damaged: judged by its age below
  }
  return { pid: 0, runtime_id: '', role: 'unknown', port: null, since_utc: '' };
}

function read(file: string): LeaseFile | null {
  let bytes: Buffer | undefined;
  try {
    bytes = readOwnedFile(file);
  } catch {
    return null;
  }
  return bytes ? parse(bytes) : null;
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.lstatSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function present(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

export interface LeaseOptions {
  dataDir: string;
  runtimeId: string;
  role: () => string;
  now: () => string;
  alive?: PidProbe;
}

export function fileLease(o: LeaseOptions): Lease {
  const file = path.join(o.dataDir, LEASE_FILE);
  let port: number | null = null;
  const mine = (held: LeaseFile | null) => held !== null && held.runtime_id === o.runtimeId;
  // An unreadable lease (being written, or damaged) gets a few seconds before it counts as abandoned.
  // Otherwise the rule every claim follows (claims/staleness.ts); the time of the last write stands
  // in for the claim's time where the lease records no process identity.
  const stale = (held: LeaseFile) => {
    if (held.pid === 0) return ageMs(file) > 5000;
    return !ownerStands({ pid: held.pid, ...identityIn(held) }, Date.now() - ageMs(file), o.alive);
  };
  const rule: FileClaimRule = {
    judge(bytes) {
      const held = parse(bytes);
      if (mine(held)) return 'mine';
      return stale(held) ? 'stale' : 'live';
    },
    unreadable() {
      // Something no process can hold (a link, a folder, a file of another user) would otherwise
      // read as "nobody holds it", and every process would schedule, silently.
      if (present(file)) throw new SvcError(500, 'unsafe_file', `The scheduler lease ${file} cannot be read (a link, a folder, or not this user's); remove it so that one process schedules routines.`);
      return 'retry'; // released meanwhile
    },
  };

  const lease: Lease = {
    acquire() {
      ensureOwnedDir(o.dataDir);
      const text = JSON.stringify({ ...ownOwner(), runtime_id: o.runtimeId, role: o.role(), port, since_utc: o.now() } satisfies LeaseFile) + '\n';
      const took = takeFileClaim(file, text, rule, o.runtimeId);
      if (took.taken) return null;
      if (took.by === 'mine') return lease.renew() ? null : shown(parse(took.bytes));
      if (took.by === 'live') return shown(parse(took.bytes));
      const now = read(file);
      return now && shown(now);
    },
    renew: () => renewFileClaim(file, rule),
    holder() {
      const held = read(file);
      return held && !stale(held) ? shown(held) : null;
    },
    recordPort(p) {
      port = p;
      const held = read(file);
      if (!mine(held)) return;
      const temp = `${file}.${o.runtimeId}.tmp`;
      fs.rmSync(temp, { force: true });
      if (createOwnedFileExclusive(temp, JSON.stringify({ ...held!, port: p }) + '\n')) fs.renameSync(temp, file);
    },
    release: () => releaseFileClaim(file, rule),
  };
  return lease;
}
