import os from 'node:os';
import type { Migration } from '../migration.js';

interface OldClaim {
  session_id: number;
  pid: number;
  runtime_id: string;
  claimed_at_ms: number;
  cancel_requested_at_utc: string | null;
}

/**
 * Whether an old claim still stands: its pid runs (signal 0; EPERM: it runs
 * under another user) and it was written after this machine booted. The old
 * rows carry no process identity, so this is the pid-and-clock rule of
 * util/process-claim.ts and util/pid.ts as they were at the time, a frozen
 * copy (a migration must not import code that may change later).
 */
function oldClaimLive(row: { pid: number; claimed_at_ms: number }): boolean {
  if (row.claimed_at_ms < Date.now() - os.uptime() * 1000) return false;
  if (!Number.isSafeInteger(row.pid) || row.pid <= 0) return false;
  try {
    process.kill(row.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims say who their process is, and there is one kind of claim.
 *
 * boot_id and pid_start (util/process-claim.ts) name the claiming process
 * beyond its pid, where the system says (Linux); rows without them (those
 * written before, or elsewhere) are judged by the pid and the wall clock.
 *
 * A conversation's turn claim becomes the job
 * `assistant_turn:N` of job_claims (26), judged, taken over and cancelled as
 * the link scan's is, and assistant_turn_claims (23, 27) goes. A claim that
 * is live as the upgrade runs (its pid runs, written after this boot) moves
 * with its cancel request, so a turn an older process still runs stays one
 * at a time; a stale one is dropped, as the next send would take it over
 * anyway. The old rows do not say which kind of process wrote them: role
 * `unknown`.
 */
export const jobClaimsTurnsIdentity: Migration = {
  version: 29,
  name: 'job-claims-turns-identity',
  creates: [],
  up(db) {
    db.exec('ALTER TABLE job_claims ADD COLUMN boot_id TEXT; ALTER TABLE job_claims ADD COLUMN pid_start INTEGER;');
    const rows = db.prepare('SELECT * FROM assistant_turn_claims').all() as OldClaim[];
    const put = db.prepare(
      `INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, detail, run_id, claimed_at_ms, claimed_at_utc, cancel_requested)
       VALUES (?, ?, ?, 'unknown', NULL, NULL, ?, ?, ?)`,
    );
    for (const r of rows) {
      if (!oldClaimLive(r)) continue;
      put.run(`assistant_turn:${r.session_id}`, r.pid, r.runtime_id, r.claimed_at_ms, new Date(r.claimed_at_ms).toISOString(), r.cancel_requested_at_utc === null ? 0 : 1);
    }
    db.exec('DROP TABLE assistant_turn_claims');
  },
};
