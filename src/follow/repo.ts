/** SQL of a following routine's lifecycle check: the person's papers to check, the fire's record, the events it reported. */
import type { Database } from 'better-sqlite3';
import { PROVENANCE_RECORD_JSON } from '../corpus/repo.js';
import type { EventKind, EventRow, TargetDocument } from '../lifecycle/repo.js';

export interface FollowCheckRow {
  execution_id: number;
  routine_id: number | null;
  profile_id: number;
  profile_name: string;
  papers: number;
  checked: number;
  failed: number;
  lookup_errors_json: string;
  error: string | null;
  started_at_utc: string;
  finished_at_utc: string | null;
}

export type FollowEventRow = EventRow & { basis: string | null; matched_author: string | null };

export function countProfilePapers(db: Database, profileId: number): number {
  return db.prepare('SELECT count(*) FROM profile_matches WHERE profile_id = ?').pluck().get(profileId) as number;
}

/**
 * The profile's matched papers in the order a check takes them: never tried
 * first, then by their last attempt, successful or not, least recent first. A
 * paper whose lookups fail goes to the back of the line like a checked one, so
 * papers that always fail never keep the others from being checked again.
 */
export function profilePapersToCheck(db: Database, profileId: number, limit: number): TargetDocument[] {
  return db
    .prepare(
      `SELECT d.id, d.title, d.doi, d.arxiv_id, d.pmid, d.doc_type, d.ids_json
       FROM profile_matches m JOIN documents d ON d.id = m.document_id LEFT JOIN lifecycle_checks c ON c.document_id = d.id
       WHERE m.profile_id = ?
       ORDER BY c.document_id IS NOT NULL, c.attempted_at_utc, d.id LIMIT ?`,
    )
    .all(profileId, limit) as TargetDocument[];
}

export function startFollowCheck(db: Database, row: Pick<FollowCheckRow, 'execution_id' | 'routine_id' | 'profile_id' | 'profile_name' | 'papers' | 'started_at_utc'>): void {
  db.prepare(
    `INSERT INTO routine_follow_checks (execution_id, routine_id, profile_id, profile_name, papers, started_at_utc) VALUES (@execution_id, @routine_id, @profile_id, @profile_name, @papers, @started_at_utc)
     ON CONFLICT (execution_id) DO NOTHING`,
  ).run(row);
}

export function progressFollowCheck(db: Database, executionId: number, add: { checked: number; failed: number; errors: string[] }): void {
  db.prepare(
    `UPDATE routine_follow_checks SET checked = checked + ?, failed = failed + ?,
       lookup_errors_json = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(lookup_errors_json) UNION ALL SELECT value FROM json_each(?) LIMIT 20))
     WHERE execution_id = ?`,
  ).run(add.checked, add.failed, JSON.stringify(add.errors), executionId);
}

export function finishFollowCheck(db: Database, executionId: number, error: string | null, now: string): void {
  db.prepare('UPDATE routine_follow_checks SET error = ?, finished_at_utc = ? WHERE execution_id = ?').run(error, now, executionId);
}

export function getFollowCheck(db: Database, executionId: number): FollowCheckRow | undefined {
  return db.prepare('SELECT * FROM routine_follow_checks WHERE execution_id = ?').get(executionId) as FollowCheckRow | undefined;
}

/**
 * The events of these kinds on the profile's papers that the routine has not reported yet become this
 * execution's news; null when the routine is gone (deleted during the fire, by any process).
 */
export function claimNewEvents(db: Database, routineId: number, profileId: number, executionId: number, kinds: readonly EventKind[]): number | null {
  return db.transaction(() => {
    if (db.prepare('SELECT 1 FROM routines WHERE id = ?').get(routineId) === undefined) return null;
    return db
      .prepare(
        `INSERT INTO routine_follow_events (routine_id, event_id, execution_id)
         SELECT ?, e.id, ? FROM lifecycle_events e JOIN profile_matches m ON m.document_id = e.document_id AND m.profile_id = ?
         WHERE e.kind IN (SELECT value FROM json_each(?)) ON CONFLICT DO NOTHING`,
      )
      .run(routineId, executionId, profileId, JSON.stringify(kinds)).changes;
  }).immediate();
}

/** What an execution reported: retractions first, then by the paper's title. */
export function reportedEvents(db: Database, executionId: number, profileId: number): FollowEventRow[] {
  return db
    .prepare(
      `SELECT e.*, d.title, d.doi, m.basis, m.matched_author FROM routine_follow_events r
       JOIN lifecycle_events e ON e.id = r.event_id JOIN documents d ON d.id = e.document_id
       LEFT JOIN profile_matches m ON m.document_id = e.document_id AND m.profile_id = ?
       WHERE r.execution_id = ? ORDER BY e.kind <> 'retraction', d.title, e.id`,
    )
    .all(profileId, executionId) as FollowEventRow[];
}

/**
 * The records this execution's search stored of these papers, by source: each source's row of the paper
 * seen during the run (merge writes last_seen_at_utc and the record as the source answered it).
 */
export function recordsOfRun(db: Database, executionId: number, documentIds: number[]): { document_id: number; source: string; record_json: string }[] {
  return db
    .prepare(
      `SELECT s.document_id, s.source, ${PROVENANCE_RECORD_JSON} AS record_json
       FROM execution_documents ed JOIN executions x ON x.id = ed.execution_id
       JOIN document_sources s ON s.document_id = ed.document_id AND s.source = ed.source AND s.last_seen_at_utc >= x.started_at_utc
       WHERE ed.execution_id = ? AND ed.document_id IN (SELECT value FROM json_each(?))`,
    )
    .all(executionId, JSON.stringify(documentIds)) as { document_id: number; source: string; record_json: string }[];
}
