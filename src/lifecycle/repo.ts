/** SQL of lifecycle checks, events and runs, in one place. */
import type { Database } from 'better-sqlite3';
import type { EventKind } from '../wire/lifecycle.js';

export type { EventKind };
export const EVENT_KINDS = ['retraction', 'preprint_to_published', 'version_change'] as const satisfies readonly EventKind[];

export interface EventRow {
  id: number;
  document_id: number;
  kind: EventKind;
  source: string;
  notice_url: string;
  notice_doi: string | null;
  label: string | null;
  detail_json: string;
  event_date: string | null;
  detected_at_utc: string;
  run_id: number | null;
  title?: string;
  doi?: string | null;
}

export interface NewEvent {
  documentId: number;
  kind: EventKind;
  source: string;
  noticeUrl: string;
  noticeDoi?: string | null;
  label?: string | null;
  detail?: Record<string, unknown>;
  eventDate?: string | null;
}

export interface CheckRow {
  document_id: number;
  checked_at_utc: string | null;
  attempted_at_utc: string;
  attempt_run_id: number | null;
  outcome: 'checked' | 'partial' | 'failed' | 'nothing_to_ask';
  asked_json: string;
  error: string | null;
}

export interface RunRow {
  id: number;
  status: 'running' | 'completed' | 'stopped' | 'failed' | 'interrupted';
  limit_n: number;
  run_until_done: number;
  checked_count: number;
  failed_count: number;
  event_count: number;
  slices: number;
  owner_runtime_id: string | null;
  last_seen_at_utc: string | null;
  stop_requested_at_utc: string | null;
  started_at_utc: string;
  finished_at_utc: string | null;
  error: string | null;
}

/** A paper as lifecycle checks know it: what it can be looked up by. */
interface DocumentIdentifiers {
  id: number;
  title: string;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  doc_type: string | null;
}

export interface TargetDocument extends DocumentIdentifiers {
  ids_json: string;
}

/** The next documents to check: never attempted first (by id), then least recently checked, none twice in one run. */
export function nextDocuments(db: Database, runId: number, limit: number): TargetDocument[] {
  const cols = 'd.id, d.title, d.doi, d.arxiv_id, d.pmid, d.doc_type, d.ids_json';
  const fresh = db
    .prepare(`SELECT ${cols} FROM documents d WHERE NOT EXISTS (SELECT 1 FROM lifecycle_checks c WHERE c.document_id = d.id) ORDER BY d.id LIMIT ?`)
    .all(limit) as TargetDocument[];
  if (fresh.length >= limit) return fresh;
  const older = db
    .prepare(
      `SELECT ${cols} FROM lifecycle_checks c JOIN documents d ON d.id = c.document_id
       WHERE c.attempt_run_id IS NOT ? ORDER BY c.checked_at_utc, c.document_id LIMIT ?`,
    )
    .all(runId, limit - fresh.length) as TargetDocument[];
  return [...fresh, ...older];
}

export function remainingInRun(db: Database, runId: number): number {
  const never = db.prepare('SELECT count(*) FROM documents d WHERE NOT EXISTS (SELECT 1 FROM lifecycle_checks c WHERE c.document_id = d.id)').pluck().get() as number;
  const older = db.prepare('SELECT count(*) FROM lifecycle_checks WHERE attempt_run_id IS NOT ?').pluck().get(runId) as number;
  return never + older;
}

export function documentsByIdentifier(db: Database, doi: string | undefined, arxiv: string | undefined): number[] {
  return db.prepare('SELECT id FROM documents WHERE (doi IS NOT NULL AND doi = ?) OR (arxiv_id IS NOT NULL AND arxiv_id = ?)').pluck().all(doi ?? null, arxiv ?? null) as number[];
}

/** Record an event once per (document, kind, notice); answers whether it is new. */
export function insertEvent(db: Database, e: NewEvent, runId: number | null, now: string): boolean {
  const info = db
    .prepare(
      `INSERT INTO lifecycle_events (document_id, kind, source, notice_url, notice_doi, label, detail_json, event_date, detected_at_utc, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (document_id, kind, notice_url) DO NOTHING`,
    )
    .run(e.documentId, e.kind, e.source, e.noticeUrl, e.noticeDoi ?? null, e.label ?? null, JSON.stringify(e.detail ?? {}), e.eventDate ?? null, now, runId);
  if (info.changes > 0 && e.kind === 'retraction') db.prepare('UPDATE documents SET is_retracted = 1 WHERE id = ? AND is_retracted = 0').run(e.documentId);
  return info.changes > 0;
}

export function recordCheck(db: Database, documentId: number, runId: number | null, outcome: CheckRow['outcome'], asked: unknown, error: string | null, now: string): void {
  const checked = outcome === 'failed' ? null : now;
  db.prepare(
    `INSERT INTO lifecycle_checks (document_id, checked_at_utc, attempted_at_utc, attempt_run_id, outcome, asked_json, error) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (document_id) DO UPDATE SET checked_at_utc = coalesce(excluded.checked_at_utc, lifecycle_checks.checked_at_utc),
       attempted_at_utc = excluded.attempted_at_utc, attempt_run_id = excluded.attempt_run_id, outcome = excluded.outcome, asked_json = excluded.asked_json, error = excluded.error`,
  ).run(documentId, checked, now, runId, outcome, JSON.stringify(asked), error);
}

const EVENT_COLUMNS = 'e.*, d.title, d.doi';

export function eventsOf(db: Database, documentId: number): EventRow[] {
  return db.prepare(`SELECT ${EVENT_COLUMNS} FROM lifecycle_events e JOIN documents d ON d.id = e.document_id WHERE e.document_id = ? ORDER BY e.detected_at_utc DESC, e.id DESC`).all(documentId) as EventRow[];
}

export function listEvents(db: Database, kind: EventKind | undefined, limit: number, offset: number): EventRow[] {
  return db
    .prepare(`SELECT ${EVENT_COLUMNS} FROM lifecycle_events e JOIN documents d ON d.id = e.document_id WHERE (@kind IS NULL OR e.kind = @kind) ORDER BY e.detected_at_utc DESC, e.id DESC LIMIT @limit OFFSET @offset`)
    .all({ kind: kind ?? null, limit, offset }) as EventRow[];
}

export function eventCounts(db: Database): Record<EventKind, number> {
  const out: Record<EventKind, number> = { retraction: 0, preprint_to_published: 0, version_change: 0 };
  for (const r of db.prepare('SELECT kind, count(*) AS n FROM lifecycle_events GROUP BY kind').all() as { kind: EventKind; n: number }[]) out[r.kind] = r.n;
  return out;
}

/** What a lifecycle answer says of the paper itself: its identifiers and how it stands. */
export interface DocumentIdentity extends DocumentIdentifiers {
  is_retracted: number;
}

export function documentIdentity(db: Database, documentId: number): DocumentIdentity | undefined {
  return db.prepare('SELECT id, title, doi, arxiv_id, pmid, doc_type, is_retracted FROM documents WHERE id = ?').get(documentId) as DocumentIdentity | undefined;
}

export function getCheck(db: Database, documentId: number): CheckRow | undefined {
  return db.prepare('SELECT * FROM lifecycle_checks WHERE document_id = ?').get(documentId) as CheckRow | undefined;
}

export function documentsTotal(db: Database): number {
  return db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
}

export function coverage(db: Database, since: string) {
  const total = documentsTotal(db);
  const row = db
    .prepare(
      `SELECT count(checked_at_utc) AS checked, coalesce(sum(outcome = 'nothing_to_ask'), 0) AS nothing_to_ask, coalesce(sum(outcome = 'failed'), 0) AS failed_last_attempt,
         coalesce(sum(outcome = 'partial'), 0) AS partial_last_attempt, coalesce(sum(checked_at_utc >= ?), 0) AS checked_since,
         max(checked_at_utc) AS last_checked_at_utc, min(checked_at_utc) AS oldest_checked_at_utc
       FROM lifecycle_checks`,
    )
    .get(since) as {
    checked: number;
    nothing_to_ask: number;
    failed_last_attempt: number;
    partial_last_attempt: number;
    checked_since: number;
    last_checked_at_utc: string | null;
    oldest_checked_at_utc: string | null;
  };
  return { documents_total: total, never_checked: total - row.checked, ...row };
}

export function insertRun(db: Database, limit: number, untilDone: boolean, runtimeId: string, now: string): number {
  return Number(
    db.prepare(`INSERT INTO lifecycle_runs (status, limit_n, run_until_done, owner_runtime_id, last_seen_at_utc, started_at_utc) VALUES ('running', ?, ?, ?, ?, ?)`).run(limit, untilDone ? 1 : 0, runtimeId, now, now)
      .lastInsertRowid,
  );
}

export function getRun(db: Database, id: number): RunRow | undefined {
  return db.prepare('SELECT * FROM lifecycle_runs WHERE id = ?').get(id) as RunRow | undefined;
}

export function runningRun(db: Database): RunRow | undefined {
  return db.prepare(`SELECT * FROM lifecycle_runs WHERE status = 'running' ORDER BY id DESC LIMIT 1`).get() as RunRow | undefined;
}

export function lastRun(db: Database): RunRow | undefined {
  return db.prepare('SELECT * FROM lifecycle_runs ORDER BY id DESC LIMIT 1').get() as RunRow | undefined;
}

export function progressRun(db: Database, id: number, add: { checked: number; failed: number; events: number }, now: string): void {
  db.prepare('UPDATE lifecycle_runs SET checked_count = checked_count + ?, failed_count = failed_count + ?, event_count = event_count + ?, slices = slices + 1, last_seen_at_utc = ? WHERE id = ?').run(
    add.checked,
    add.failed,
    add.events,
    now,
    id,
  );
}

export function heartbeatRun(db: Database, id: number, now: string): void {
  db.prepare(`UPDATE lifecycle_runs SET last_seen_at_utc = ? WHERE id = ? AND status = 'running'`).run(now, id);
}

export function requestStop(db: Database, id: number, now: string): void {
  db.prepare(`UPDATE lifecycle_runs SET stop_requested_at_utc = coalesce(stop_requested_at_utc, ?) WHERE id = ? AND status = 'running'`).run(now, id);
}

export function finishRun(db: Database, id: number, status: RunRow['status'], error: string | null, now: string): void {
  db.prepare(`UPDATE lifecycle_runs SET status = ?, error = ?, finished_at_utc = ?, last_seen_at_utc = ? WHERE id = ? AND status = 'running'`).run(status, error, now, now, id);
}
