/** SQL of analytics, in one place. `from` is the window start (null: everything). */
import type { Database } from 'better-sqlite3';

const W_DOC = `(@from IS NULL OR d.first_seen_at_utc >= @from)`;
const W_RUN = `(@from IS NULL OR e.started_at_utc >= @from)`;

export interface CorpusCounts {
  documents_total: number;
  documents_in_window: number;
  with_doi: number;
  with_abstract: number;
  open_access: number;
  retracted: number;
  preprints: number;
  undated: number;
}

export function corpusCounts(db: Database, from: string | null): CorpusCounts {
  const total = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  const row = db
    .prepare(
      `SELECT count(*) AS documents_in_window, count(d.doi) AS with_doi, coalesce(sum(d.abstract IS NOT NULL AND d.abstract != ''), 0) AS with_abstract,
         coalesce(sum(d.open_access = 1), 0) AS open_access, coalesce(sum(d.is_retracted = 1), 0) AS retracted,
         coalesce(sum(d.doc_type = 'preprint'), 0) AS preprints, coalesce(sum(d.publication_date IS NULL), 0) AS undated
       FROM documents d WHERE ${W_DOC}`,
    )
    .get({ from }) as Omit<CorpusCounts, 'documents_total'>;
  return { documents_total: total, ...row };
}

export function executionCounts(db: Database, from: string | null): Record<string, number> {
  const rows = db.prepare(`SELECT e.status, count(*) AS n FROM executions e WHERE ${W_RUN} GROUP BY e.status`).all({ from }) as { status: string; n: number }[];
  const out: Record<string, number> = { running: 0, completed: 0, failed: 0, cancelled: 0, interrupted: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}

export function routineCounts(db: Database): { active: number; inactive: number } {
  return db.prepare('SELECT coalesce(sum(is_active = 1), 0) AS active, coalesce(sum(is_active = 0), 0) AS inactive FROM routines').get() as { active: number; inactive: number };
}

export function distinctCounts(db: Database, from: string | null): { sources: number; categories: number } {
  const sources = db.prepare(`SELECT count(DISTINCT s.source) FROM document_sources s JOIN documents d ON d.id = s.document_id WHERE ${W_DOC}`).pluck().get({ from }) as number;
  const categories = db.prepare(`SELECT count(DISTINCT c.value) FROM documents d, json_each(d.categories_json) c WHERE ${W_DOC}`).pluck().get({ from }) as number;
  return { sources, categories };
}

export function lifecycleEventCount(db: Database, from: string | null): number {
  return db.prepare('SELECT count(*) FROM lifecycle_events WHERE (@from IS NULL OR detected_at_utc >= @from)').pluck().get({ from }) as number;
}

/** Papers per publication month (day or month precision only). */
export function monthTotals(db: Database, from: string | null): { month: string; n: number }[] {
  return db
    .prepare(`SELECT substr(d.publication_date, 1, 7) AS month, count(*) AS n FROM documents d WHERE d.date_precision IN ('day', 'month') AND ${W_DOC} GROUP BY month ORDER BY month`)
    .all({ from }) as { month: string; n: number }[];
}

/** Papers per publication month and source (a paper counts once under each source that holds it). */
export function monthBySource(db: Database, from: string | null): { month: string; series: string; n: number }[] {
  return db
    .prepare(
      `SELECT substr(d.publication_date, 1, 7) AS month, s.source AS series, count(DISTINCT d.id) AS n
       FROM documents d JOIN document_sources s ON s.document_id = d.id
       WHERE d.date_precision IN ('day', 'month') AND ${W_DOC} GROUP BY month, series`,
    )
    .all({ from }) as { month: string; series: string; n: number }[];
}

/** Papers per publication month and subject category (a paper counts once under each of its categories). */
export function monthByCategory(db: Database, from: string | null): { month: string; series: string; n: number }[] {
  return db
    .prepare(
      `SELECT substr(d.publication_date, 1, 7) AS month, c.value AS series, count(DISTINCT d.id) AS n
       FROM documents d, json_each(d.categories_json) c
       WHERE d.date_precision IN ('day', 'month') AND ${W_DOC} AND c.value IS NOT NULL AND c.value != '' GROUP BY month, series`,
    )
    .all({ from }) as { month: string; series: string; n: number }[];
}

export function precisionCounts(db: Database, from: string | null): { year_only: number; undated: number } {
  return db
    .prepare(`SELECT coalesce(sum(d.date_precision = 'year'), 0) AS year_only, coalesce(sum(d.publication_date IS NULL), 0) AS undated FROM documents d WHERE ${W_DOC}`)
    .get({ from }) as { year_only: number; undated: number };
}

export interface DeliveredRow {
  source: string;
  delivered: number;
  first_found: number;
  only_this_source: number;
}

/** Per source: distinct papers returned in runs of the window, those it found first, and those no other source ever found. */
export function deliveredBySource(db: Database, from: string | null): DeliveredRow[] {
  return db
    .prepare(
      `WITH delivered AS (
         SELECT ed.source, ed.document_id, max(ed.is_new) AS is_new FROM execution_documents ed JOIN executions e ON e.id = ed.execution_id
         WHERE ${W_RUN} GROUP BY ed.source, ed.document_id)
       SELECT x.source, count(*) AS delivered, coalesce(sum(x.is_new), 0) AS first_found,
         coalesce(sum(NOT EXISTS (SELECT 1 FROM document_sources s WHERE s.document_id = x.document_id AND s.source != x.source)
                  AND NOT EXISTS (SELECT 1 FROM execution_documents o WHERE o.document_id = x.document_id AND o.source != x.source)), 0) AS only_this_source
       FROM delivered x GROUP BY x.source ORDER BY delivered DESC, x.source`,
    )
    .all({ from }) as DeliveredRow[];
}

export function deliveredTotal(db: Database, from: string | null): number {
  return db.prepare(`SELECT count(DISTINCT ed.document_id) FROM execution_documents ed JOIN executions e ON e.id = ed.execution_id WHERE ${W_RUN}`).pluck().get({ from }) as number;
}

/** How each source was asked in settled runs of the window: answered, and why not. */
export function askedBySource(db: Database, from: string | null): { source: string; status: string; zero_reason: string | null; n: number }[] {
  return db
    .prepare(
      `SELECT es.source, es.status, es.zero_reason, count(*) AS n FROM execution_sources es JOIN executions e ON e.id = es.execution_id
       WHERE e.status != 'running' AND ${W_RUN} GROUP BY es.source, es.status, es.zero_reason`,
    )
    .all({ from }) as { source: string; status: string; zero_reason: string | null; n: number }[];
}

export function inCorpusBySource(db: Database): { source: string; n: number }[] {
  return db.prepare('SELECT source, count(DISTINCT document_id) AS n FROM document_sources GROUP BY source').all() as { source: string; n: number }[];
}

export interface RunWithKeywords {
  id: number;
  routine_id: number | null;
  parameters_json: string;
}

export function settledRuns(db: Database, from: string | null, routineId: number | null): RunWithKeywords[] {
  return db
    .prepare(`SELECT e.id, e.routine_id, e.parameters_json FROM executions e WHERE e.status != 'running' AND ${W_RUN} AND (@rid IS NULL OR e.routine_id = @rid) ORDER BY e.id`)
    .all({ from, rid: routineId }) as RunWithKeywords[];
}

export function runDocuments(db: Database, executionId: number): { id: number; title: string; abstract: string | null }[] {
  return db
    .prepare(`SELECT DISTINCT d.id, d.title, d.abstract FROM execution_documents ed JOIN documents d ON d.id = ed.document_id WHERE ed.execution_id = ?`)
    .all(executionId) as { id: number; title: string; abstract: string | null }[];
}

export interface HealthRun {
  id: number;
  status: string;
  started_at_utc: string;
  finished_at_utc: string | null;
  result_count: number;
  new_count: number;
}

/** A routine's settled runs, newest first. */
export function routineRuns(db: Database, routineId: number, from: string | null, limit: number): HealthRun[] {
  return db
    .prepare(
      `SELECT e.id, e.status, e.started_at_utc, e.finished_at_utc, e.result_count, e.new_count FROM executions e
       WHERE e.routine_id = @rid AND e.status != 'running' AND ${W_RUN} ORDER BY e.started_at_utc DESC, e.id DESC LIMIT @limit`,
    )
    .all({ rid: routineId, from, limit }) as HealthRun[];
}

/** Days from publication (day precision) to first seen, for the corpus. */
export function corpusLags(db: Database, from: string | null): number[] {
  return db
    .prepare(
      `SELECT julianday(substr(d.first_seen_at_utc, 1, 10)) - julianday(d.publication_date) AS lag FROM documents d
       WHERE d.date_precision = 'day' AND ${W_DOC} AND julianday(d.publication_date) IS NOT NULL ORDER BY lag`,
    )
    .pluck()
    .all({ from }) as number[];
}

/** Days from publication to first seen by each source (its own provenance row). */
export function sourceLags(db: Database, from: string | null): { source: string; lag: number }[] {
  return db
    .prepare(
      `SELECT s.source, julianday(substr(s.first_seen_at_utc, 1, 10)) - julianday(d.publication_date) AS lag
       FROM document_sources s JOIN documents d ON d.id = s.document_id
       WHERE d.date_precision = 'day' AND (@from IS NULL OR s.first_seen_at_utc >= @from) AND julianday(d.publication_date) IS NOT NULL`,
    )
    .all({ from }) as { source: string; lag: number }[];
}

export function lagExcluded(db: Database, from: string | null): { month_or_year: number; undated: number } {
  return db
    .prepare(
      `SELECT coalesce(sum(d.date_precision IN ('month', 'year')), 0) AS month_or_year, coalesce(sum(d.publication_date IS NULL), 0) AS undated FROM documents d WHERE ${W_DOC}`,
    )
    .get({ from }) as { month_or_year: number; undated: number };
}
