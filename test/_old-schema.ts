/**
 * Databases as older svc releases left them: the migrations a real
 * installation had applied at a point of main's history (not always a prefix
 * of the version numbers: wave 1 shipped the Library, 16, before 5–15), filled
 * with rows shaped like what the code of that time wrote, and a snapshot of
 * every table to compare after an upgrade.
 */
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export interface Installation {
  name: string;
  versions: number[];
}

/** Sets of applied migrations a real installation could have (main's first-parent history, and the brief's version prefixes). */
export const INSTALLATIONS: Installation[] = [
  { name: 'end of wave 1 (3adcc57: 1-4, 16)', versions: [1, 2, 3, 4, 16] },
  { name: 'wave 2 first merges (e55e633: 1-5, 7, 8, 11, 15-17)', versions: [1, 2, 3, 4, 5, 7, 8, 11, 15, 16, 17] },
  { name: 'schema 6 (1-6)', versions: range(1, 6) },
  { name: 'explorer merged (95edf3c: 1-8, 11, 12, 15-17)', versions: [...range(1, 8), 11, 12, 15, 16, 17] },
  { name: 'schema 12 (1-12)', versions: range(1, 12) },
  { name: 'answers merged (8fff21b: 1-12, 15-19)', versions: [...range(1, 12), ...range(15, 19)] },
  { name: 'schema 13 (1-13)', versions: range(1, 13) },
  { name: 'schema 19 (ef4aed9: 1-13, 15-19)', versions: [...range(1, 13), ...range(15, 19)] },
];

/** The last schema with assistant_turn_claims (23, 27), before 29 folded it into job_claims. */
export const SCHEMA_28: Installation = { name: 'schema 28 (1-13, 15-28)', versions: [...range(1, 13), ...range(15, 28)] };

/** A conversation's turn claim as the code of schema 23-28 wrote it (27 added the cancel stamp). */
export function putOldTurnClaim(db: Database, c: { session_id: number; pid: number; runtime_id: string; claimed_at_ms: number; cancel_requested_at_utc?: string | null }): void {
  db.prepare('INSERT INTO assistant_turn_claims (session_id, pid, runtime_id, claimed_at_ms, cancel_requested_at_utc) VALUES (?, ?, ?, ?, ?)').run(
    c.session_id, c.pid, c.runtime_id, c.claimed_at_ms, c.cancel_requested_at_utc ?? null,
  );
}

export const OLD_NOW = '2026-11-20T09:00:00.000Z';
const T = (minute: number) => `2026-11-20T09:${String(minute).padStart(2, '0')}:00.000Z`;

/** Create the database file with only these migrations applied, as that svc opened it. */
export function buildOldDatabase(file: string, versions: number[]): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.filter((m) => versions.includes(m.version)), () => OLD_NOW);
  return db;
}

export interface Paper {
  id: number;
  title: string;
  abstract: string;
  authors: string[];
  categories: string[];
  year: number | null;
  doi: string | null;
  sources: string[];
}

/** The papers every old database holds (ids fixed: rows refer to them). */
export const PAPERS: Paper[] = [
  { id: 1, title: 'Coral reef resilience under marine heatwaves', abstract: 'Bleaching thresholds of reef-building corals.', authors: ['Ada Lovelace', 'Grace Hopper'], categories: ['Ecology', 'Marine Biology'], year: 2021, doi: '10.1000/reef.1', sources: ['crossref', 'openalex'] },
  { id: 2, title: 'Soil microbiomes and carbon storage', abstract: 'Microbial necromass in grassland soils.', authors: ['Grace Hopper'], categories: ['Ecology'], year: 2022, doi: '10.1000/soil.2', sources: ['crossref'] },
  { id: 3, title: 'Transformer models for protein folding', abstract: 'Attention over residue pairs.', authors: ['Alan Turing', 'Ada Lovelace', 'ada lovelace '], categories: ['Machine Learning'], year: 2023, doi: null, sources: ['arxiv'] },
  { id: 4, title: 'Undated note on reef fish acoustics', abstract: 'Snapping shrimp dominate reef soundscapes.', authors: [], categories: [], year: null, doi: '10.1000/fish.4', sources: ['europepmc', 'crossref'] },
  // 5 is folded away (deleted) after indexing; 6 is found by a run that died before its flush.
  { id: 5, title: 'Coral reef resilience under marine heatwaves (preprint)', abstract: 'Preprint.', authors: ['Ada Lovelace'], categories: ['Ecology'], year: 2020, doi: null, sources: ['biorxiv'] },
  { id: 6, title: 'Seagrass meadows as carbon sinks', abstract: 'Blue carbon in coastal sediments.', authors: ['Rachel Carson'], categories: ['Ecology', 'Oceanography'], year: 2024, doi: '10.1000/seagrass.6', sources: ['openalex'] },
];
/** What the corpus holds after the old runs: 2 retitled, 5 folded into 1 (its provenance moved). */
export const KEPT_PAPERS: Paper[] = PAPERS.filter((p) => p.id !== 5).map((p) =>
  p.id === 1 ? { ...p, sources: [...p.sources, 'biorxiv'] } : p.id === 2 ? { ...p, title: 'Soil microbiomes and long-term carbon storage' } : p,
);

function insertPaper(db: Database, p: Paper, at: string): void {
  const authors = p.authors.map((name) => ({ name, orcid: name === 'Ada Lovelace' ? '0000-0002-1825-0097' : null }));
  db.prepare(
    `INSERT INTO documents (id, title, title_key, abstract, authors_json, authors_text, first_author_key, publication_date, date_precision, sort_date, year,
       venue, doi, arxiv_id, pmid, pmcid, ids_json, landing_url, pdf_url, categories_json, license, open_access, doc_type, is_retracted, relations_json,
       meta_source, first_seen_at_utc, updated_at_utc)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, NULL, ?, 'CC-BY-4.0', 1, ?, 0, '[]', ?, ?, ?)`,
  ).run(
    p.id, p.title, p.title.toLowerCase(), p.abstract, JSON.stringify(authors), p.authors.join('; '), (p.authors[0] ?? '').toLowerCase().split(' ').pop() ?? '',
    p.year ? `${p.year}-03-04` : null, p.year ? 'day' : null, p.year ? `${p.year}-03-04` : '', p.year,
    p.id === 4 ? null : 'Journal of Tests', p.doi, p.sources.includes('arxiv') ? `2301.0000${p.id}` : null,
    JSON.stringify(p.doi ? { doi: p.doi } : {}), p.doi ? `https://doi.org/${p.doi}` : null, JSON.stringify(p.categories),
    p.sources.includes('arxiv') || p.sources.includes('biorxiv') ? 'preprint' : 'journal-article', p.sources[0], at, at,
  );
  const prov = db.prepare('INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (?, ?, ?, ?, ?, ?)');
  for (const source of p.sources) prov.run(p.id, source, `${source}:${p.id}`, at, at, JSON.stringify({ source, native_id: `${source}:${p.id}`, title: p.title, doi: p.doi, authors }));
}

/** What the flush of that release did at the end of a run. */
function oldFlush(db: Database, has: (v: number) => boolean): void {
  db.exec('INSERT INTO documents_fts (rowid, title, abstract, authors_text) SELECT d.id, d.title, d.abstract, d.authors_text FROM documents_fts_pending p JOIN documents d ON d.id = p.id');
  if (has(13)) {
    const due = '(SELECT id FROM documents_fts_pending UNION SELECT id FROM document_facets_pending)';
    db.exec(`
      DELETE FROM document_authors WHERE document_id IN ${due};
      DELETE FROM document_categories WHERE document_id IN ${due};
      INSERT OR IGNORE INTO document_authors (document_id, position, author_key, name)
        SELECT d.id, j.key, lower(trim(j.value ->> '$.name')), j.value ->> '$.name' FROM ${due} p JOIN documents d ON d.id = p.id, json_each(d.authors_json) j
        WHERE trim(coalesce(j.value ->> '$.name', '')) <> '';
      INSERT OR IGNORE INTO document_categories (document_id, category)
        SELECT d.id, j.value FROM ${due} p JOIN documents d ON d.id = p.id, json_each(d.categories_json) j WHERE j.type = 'text' AND j.value <> '';
      INSERT INTO explorer_facet_counts (facet, value, count)
        SELECT 'authors', author_key, count(DISTINCT document_id) FROM document_authors WHERE document_id IN ${due} GROUP BY author_key
        ON CONFLICT (facet, value) DO UPDATE SET count = count + excluded.count;
      INSERT INTO explorer_facet_counts (facet, value, count)
        SELECT 'categories', category, count(*) FROM document_categories WHERE document_id IN ${due} GROUP BY category
        ON CONFLICT (facet, value) DO UPDATE SET count = count + excluded.count;
      DELETE FROM document_facets_pending;
    `);
  }
  db.exec('DELETE FROM documents_fts_pending');
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Fill every table that exists at this set of migrations, as that release's
 * code would have: a corpus built by runs (one paper edited, one folded away,
 * one left queued by a run that died), executions of every kind, routines
 * with jobs, fires and deliveries, and the rows of every later feature.
 * `vaultRoot` is where the Library's vault folder is made (when 16 is there).
 */
export function fillOldDatabase(db: Database, versions: number[], vaultRoot: string): void {
  const has = (v: number) => versions.includes(v);
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).run(...args);
  db.transaction(() => {
    // Foundation: settings of several groups, a fact about the installation.
    const setting = (group: string, key: string, value: unknown) => run('INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES (?, ?, ?, ?)', group, key, JSON.stringify(value), OLD_NOW);
    setting('email', 'smtp_host', 'smtp.example.org');
    setting('email', 'smtp_port', 465);
    setting('email', 'from_address', 'svc@example.org');
    setting('execution', 'max_concurrent_executions', 3);
    setting('notifications', 'on_failure', true);
    setting('embeddings', 'provider', 'none');
    setting('cloud', 'url', 'https://dav.example.org/remote.php/dav');
    run('INSERT INTO app_state (key, value_json, updated_at_utc) VALUES (?, ?, ?)', 'onboarding_dismissed', 'true', OLD_NOW);

    // Corpus, run by run.
    for (const p of PAPERS.slice(0, 5)) insertPaper(db, p, T(1));
    oldFlush(db, has);
    // A later run: a change-only update (title of 2), then folding 5 into 1 (provenance moves, 5 goes).
    run("UPDATE documents SET title = 'Soil microbiomes and long-term carbon storage', title_key = 'soil microbiomes and long-term carbon storage', updated_at_utc = ? WHERE id = 2", T(5));
    run('UPDATE document_sources SET document_id = 1 WHERE document_id = 5');
    run('DELETE FROM documents WHERE id = 5');
    oldFlush(db, has);
    // A run that died before its flush: paper 6 is merged but still queued.
    insertPaper(db, PAPERS[5]!, T(8));

    // Executions: a completed sweep, a routine run, a failed dive, a run whose owner died.
    const exec = db.prepare(
      `INSERT INTO executions (id, type, status, interrupted_reason, request_id, routine_id, saved_configuration_id, query, repositories_json, parameters_json,
         ai_enabled, ai_lane_json, restarted_from, owner_pid, owner_runtime_id, owner_role, last_seen_at_utc, cancel_requested_at_utc, started_at_utc,
         finished_at_utc, result_count, new_count, error, report_path)
       VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 0, 'null', ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
    );
    const spec = (type: string, repositories: string[], query: string, routineId: number | null, configId: number | null) =>
      JSON.stringify({ type, repositories, query, keywords: [], dateFrom: null, dateTo: null, maxResults: 50, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: configId, routineId, author: null });
    const runtime = uuid(900);
    // Routines first (executions refer to them by id, without a foreign key).
    const params = (query: string, repositories: string[]) => JSON.stringify({ repositories, query, keywords: ['reef'], max_results: 50, ai_enabled: false, ai_settings: null, saved_configuration_id: null, window_days: 30, since_last_success: false });
    const routine = db.prepare(
      `INSERT INTO routines (id, name, schedule_cron, parameters_json, ai_enabled, ai_settings_json, email_ai_summary_enabled, email_enabled, intent, is_active,
         notify_on_complete, storage_settings_json, entity_json, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, 0, NULL, 0, ?, ?, ?, ?, NULL, NULL, ?, ?)`,
    );
    routine.run(1, 'Reef weekly', '0 7 * * 1', params('coral reef', ['crossref', 'openalex']), 1, 'Follow reef ecology', 1, 1, OLD_NOW, OLD_NOW);
    routine.run(2, 'Paused soil watch', '30 6 * * *', params('soil carbon', ['crossref']), 0, null, 0, 0, OLD_NOW, OLD_NOW);
    run('INSERT INTO scheduler_jobs (id, routine_id, schedule_cron, next_run_at_utc, misfire_grace_seconds, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, 3600, ?, ?)', 'routine-1', 1, '0 7 * * 1', '2026-11-23T07:00:00.000Z', OLD_NOW, OLD_NOW);
    run('INSERT INTO saved_configurations (id, name, config_type, parameters_json, created_at_utc, updated_at_utc) VALUES (1, ?, ?, ?, ?, ?)', 'Reef sweep', 'sweep', JSON.stringify({ repositories: ['crossref', 'openalex'], query: 'coral reef', max_results: 50 }), OLD_NOW, OLD_NOW);
    run('INSERT INTO saved_configurations (id, name, config_type, parameters_json, created_at_utc, updated_at_utc) VALUES (2, ?, ?, ?, ?, ?)', 'One arXiv dive', 'dive', JSON.stringify({ repository: 'arxiv', query: 'protein folding' }), OLD_NOW, OLD_NOW);

    exec.run(1, 'sweep', 'completed', 'req-1', null, 1, 'coral reef', '["crossref","openalex"]', spec('sweep', ['crossref', 'openalex'], 'coral reef', null, 1), null, 4242, runtime, 'server', T(2), T(1), T(2), 3, 3, null, null);
    exec.run(2, 'routine', 'completed', null, 1, null, 'coral reef', '["crossref","openalex"]', spec('routine', ['crossref', 'openalex'], 'coral reef', 1, null), null, 4242, runtime, 'scheduler', T(6), T(5), T(6), 2, 1, null, null);
    exec.run(3, 'dive', 'failed', null, null, 2, 'protein folding', '["arxiv"]', spec('dive', ['arxiv'], 'protein folding', null, 2), null, 4242, runtime, 'cli', T(7), T(7), T(7), 0, 0, 'arxiv: connection refused', null);
    exec.run(4, 'dive', 'running', null, null, null, 'seagrass', '["openalex"]', spec('dive', ['openalex'], 'seagrass', null, null), 3, 999_999_999, uuid(901), 'cli', T(8), T(8), null, 1, 1, null, null);
    const source = db.prepare(
      `INSERT INTO execution_sources (execution_id, source, position, status, record_count, new_count, zero_reason, message, pages, outcome_json, started_at_utc, finished_at_utc, ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // The driver's outcome as runs stored it (records left out).
    const outcome = (src: string, query: string, received: number, zero: string | null, started: string, extra: Record<string, unknown> = {}) => JSON.stringify({
      source: src, zeroReason: zero, message: null,
      evidence: { http_status: zero === 'unreachable' ? null : 200, received, usable: received, unusable: 0, filtered_out: 0, rights_filtered: 0, total_reported: received, ...extra },
      request: { query, keywords: [], date_from: null, date_to: null, max_results: 50, author: null, base_url: `https://api.${src}.org`, key: 'none' },
      window: { asked: null, answered: null, support: 'none' }, partialFailure: null, cancelled: false, pages: 1,
      traces: [{ method: 'GET', url: `https://api.${src}.org/works?query=${encodeURIComponent(query)}`, status: zero === 'unreachable' ? null : 200, ms: 400, bytes: 2048, attempt: 1 }],
      startedAtUtc: started, finishedAtUtc: started, ms: 400,
    });
    source.run(1, 'crossref', 0, 'answered', 3, 2, null, null, 1, outcome('crossref', 'coral reef', 3, null, T(1)), T(1), T(2), 812);
    source.run(1, 'openalex', 1, 'answered', 1, 1, null, null, 1, outcome('openalex', 'coral reef', 1, null, T(1)), T(1), T(2), 640);
    source.run(2, 'crossref', 0, 'answered', 1, 0, null, null, 1, outcome('crossref', 'coral reef', 1, null, T(5)), T(5), T(6), 500);
    source.run(2, 'openalex', 1, 'answered', 0, 0, 'no_match', 'No paper matched the query', 1, outcome('openalex', 'coral reef', 0, 'no_match', T(5)), T(5), T(6), 300);
    source.run(3, 'arxiv', 0, 'not_answered', 0, 0, 'unreachable', 'connection refused', 0, outcome('arxiv', 'protein folding', 0, 'unreachable', T(7), { exception_class: 'ECONNREFUSED', network: 'refused' }), T(7), T(7), 20);
    source.run(4, 'openalex', 0, 'running', 1, 1, null, null, 1, null, T(8), null, null);
    const found = db.prepare('INSERT INTO execution_documents (execution_id, document_id, source, rank, is_new) VALUES (?, ?, ?, ?, ?)');
    found.run(1, 1, 'crossref', 0, 1);
    found.run(1, 2, 'crossref', 1, 1);
    found.run(1, 4, 'crossref', 2, 0);
    found.run(1, 1, 'openalex', 0, 0);
    found.run(2, 2, 'crossref', 0, 0);
    found.run(2, 3, 'crossref', 1, 1);
    found.run(4, 6, 'openalex', 0, 1);
    const event = db.prepare('INSERT INTO execution_events (execution_id, seq, at_utc, kind, level, source, message, data_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    event.run(1, 1, T(1), 'started', 'info', null, 'Sweep started', null);
    event.run(1, 2, T(2), 'source_answered', 'info', 'crossref', 'crossref answered 3 records', '{"records":3}');
    event.run(1, 3, T(2), 'finished', 'info', null, 'Sweep completed: 3 papers, 3 new', null);
    event.run(3, 1, T(7), 'source_failed', 'error', 'arxiv', 'arxiv: connection refused', null);
    event.run(4, 1, T(8), 'started', 'info', null, 'Dive started', null);
    run(`INSERT INTO routine_fires (routine_id, trigger, outcome, first_due_at_utc, due_at_utc, fire_count, execution_id, reason, owner_runtime_id, recorded_at_utc, started_at_utc)
         VALUES (1, 'schedule', 'started', ?, ?, 1, 2, NULL, ?, ?, ?)`, T(5), T(5), runtime, T(5), T(5));
    run(`INSERT INTO routine_fires (routine_id, trigger, outcome, first_due_at_utc, due_at_utc, fire_count, execution_id, reason, owner_runtime_id, recorded_at_utc, started_at_utc)
         VALUES (1, 'coalesced', 'missed', ?, ?, 3, NULL, 'svc was not running', ?, ?, NULL)`, '2026-11-02T07:00:00.000Z', '2026-11-16T07:00:00.000Z', runtime, T(4));

    if (has(5)) {
      run("INSERT INTO delivery_targets (id, routine_id, channel, enabled, mode, target, secret, created_at_utc, updated_at_utc) VALUES (1, 1, 'webhook', 1, 'automatic', 'http://127.0.0.1:9/hook', 'whsec-old', ?, ?)", OLD_NOW, OLD_NOW);
      run("INSERT INTO delivery_targets (id, routine_id, channel, enabled, mode, target, secret, created_at_utc, updated_at_utc) VALUES (2, 1, 'folder', 1, 'review', ?, NULL, ?, ?)", path.join(vaultRoot, 'reports'), OLD_NOW, OLD_NOW);
      run("INSERT INTO deliveries (id, routine_id, execution_id, target_id, origin, channel, mode, state, attempts, last_error, next_attempt_at_utc, created_at_utc, updated_at_utc, delivered_at_utc) VALUES (1, 1, 2, 1, 'target', 'webhook', 'automatic', 'delivered', 1, NULL, NULL, ?, ?, ?)", T(6), T(6), T(6));
      run("INSERT INTO deliveries (id, routine_id, execution_id, target_id, origin, channel, mode, state, attempts, created_at_utc, updated_at_utc) VALUES (2, 1, 2, 2, 'target', 'folder', 'review', 'awaiting_review', 0, ?, ?)", T(6), T(6));
      run("INSERT INTO delivery_attempts (delivery_id, seq, started_at_utc, finished_at_utc, outcome, error, owner_runtime_id) VALUES (1, 1, ?, ?, 'delivered', NULL, ?)", T(6), T(6), runtime);
    }
    if (has(6)) {
      run("INSERT INTO reading_queue (document_id, status, saved_at_utc, read_at_utc, updated_at_utc) VALUES (1, 'unread', ?, NULL, ?)", T(3), T(3));
      run("INSERT INTO reading_queue (document_id, status, saved_at_utc, read_at_utc, updated_at_utc) VALUES (3, 'read', ?, ?, ?)", T(3), T(4), T(4));
    }
    if (has(7)) {
      run(`INSERT INTO lifecycle_runs (id, status, limit_n, run_until_done, checked_count, failed_count, event_count, slices, owner_runtime_id, last_seen_at_utc, started_at_utc, finished_at_utc)
           VALUES (1, 'completed', 100, 0, 2, 0, 1, 1, ?, ?, ?, ?)`, runtime, T(9), T(9), T(9));
      run(`INSERT INTO lifecycle_events (document_id, kind, source, notice_url, notice_doi, label, detail_json, event_date, detected_at_utc, run_id)
           VALUES (4, 'retraction', 'crossref', 'https://doi.org/10.1000/retract.4', '10.1000/retract.4', 'Retraction Watch', '{"reason":"data"}', '2026-10-01', ?, 1)`, T(9));
      run(`INSERT INTO lifecycle_checks (document_id, checked_at_utc, attempted_at_utc, attempt_run_id, outcome, asked_json, error) VALUES (4, ?, ?, 1, 'checked', '["crossref"]', NULL)`, T(9), T(9));
      run(`INSERT INTO lifecycle_checks (document_id, checked_at_utc, attempted_at_utc, attempt_run_id, outcome, asked_json, error) VALUES (3, NULL, ?, 1, 'nothing_to_ask', '[]', NULL)`, T(9));
      run("INSERT INTO watchdog_mutes (finding_key, note, muted_at_utc) VALUES ('source:arxiv', 'arXiv is down for maintenance', ?)", T(9));
    }
    if (has(8)) {
      run(`INSERT INTO watch_profiles (id, kind, name, display_name, orcid, orcid_cited, aliases_json, affiliations_json, field_hints_json, scanned_through_document_id, created_at_utc, updated_at_utc)
           VALUES (1, 'person', 'Ada Lovelace', 'Ada Lovelace', '0000-0002-1825-0097', 0, '["A. Lovelace"]', '["University of London"]', '["ecology"]', 4, ?, ?)`, OLD_NOW, OLD_NOW);
      run("INSERT INTO profile_name_keys (profile_id, name_key, source, variant) VALUES (1, 'lovelace a', 'name', 'Ada Lovelace'), (1, 'lovelace a', 'alias', 'A. Lovelace')");
      run("INSERT INTO profile_matches (profile_id, document_id, basis, matched_author, evidence, matched_at_utc) VALUES (1, 1, 'orcid', 'Ada Lovelace', 'ORCID 0000-0002-1825-0097 on the record', ?), (1, 3, 'name_only', 'Ada Lovelace', 'name matches', ?)", T(3), T(3));
      run("UPDATE routines SET entity_json = '{\"profile_id\":1,\"mode\":\"new_papers\"}' WHERE id = 2");
    }
    if (has(9)) {
      const vec = Buffer.from(new Float32Array([0.6, 0.8, 0]).buffer);
      for (const id of [1, 2, 3]) run("INSERT INTO embedding_vectors (model, document_id, dimension, vector, created_at_utc) VALUES ('lexical-hash-v1', ?, 3, ?, ?)", id, vec, T(9));
      run("INSERT INTO embedding_runs (id, model, trigger, state, total, embedded, tokens, error, owner_runtime_id, started_at_utc, finished_at_utc) VALUES (1, 'lexical-hash-v1', 'api', 'completed', 3, 3, 120, NULL, ?, ?, ?)", runtime, T(9), T(9));
      run("INSERT INTO embedding_stats (model, documents, data, updated_at_utc) VALUES ('lexical-hash-v1', 3, ?, ?)", Buffer.from([1, 2, 3, 4]), T(9));
      run("INSERT INTO embedding_index_state (id, model, dimension, vectors, built_at_utc) VALUES (1, 'lexical-hash-v1', 3, 3, ?)", T(9));
    }
    if (has(10)) {
      run("INSERT INTO document_links (document_a, document_b, method, score, evidence_json, created_at_utc) VALUES (1, 4, 'title_variant', 0.91, '{\"title_similarity\":0.91}', ?)", T(9));
      run("INSERT INTO link_scans (id, state, total, scanned, candidates, links_written, error, owner_runtime_id, started_at_utc, finished_at_utc) VALUES (1, 'completed', 5, 5, 2, 1, NULL, ?, ?, ?)", runtime, T(9), T(9));
    }
    if (has(11)) {
      run("INSERT INTO admin_backups (kind, path, created_at_utc, byte_size, manifest_sha256, include_reports, file_count, schema_version, remote_path) VALUES ('local', ?, ?, 20480, ?, 1, 3, ?, NULL)", path.join(vaultRoot, 'svc-backup.tar'), T(10), sha('manifest'), Math.max(...versions));
    }
    if (has(15)) {
      run("INSERT INTO assistant_sessions (id, title, runtime, model, native_session_id, created_at_utc, updated_at_utc) VALUES (1, 'Reef papers', NULL, NULL, NULL, ?, ?)", T(11), T(12));
      run("INSERT INTO assistant_messages (id, session_id, role, content, created_at_utc) VALUES (1, 1, 'user', 'Which reef papers are new?', ?)", T(11));
      run("INSERT INTO assistant_messages (id, session_id, role, content, created_at_utc, input_tokens, output_tokens, cost_usd) VALUES (2, 1, 'assistant', 'Two: coral reef resilience and reef fish acoustics.', ?, 120, 30, 0.002)", T(12));
      run(`INSERT INTO assistant_session_choices (session_id, version, runtime, provider, requested_model, requested_effort, model_basis, effort_basis, binding_basis, route_digest, created_at_utc)
           VALUES (1, 1, 'api', 'openai', 'gpt-test', NULL, 'requested', 'default', 'first_send', ?, ?)`, sha('route'), T(11));
      run("INSERT INTO assistant_turn_choices (id, session_id, user_message_id, assistant_message_id, version, runtime, provider, requested_model, requested_effort, created_at_utc) VALUES (1, 1, 1, 2, 1, 'api', 'openai', 'gpt-test', NULL, ?)", T(11));
      run("INSERT INTO assistant_model_reports (turn_id, sequence, model, source, observed_at_utc) VALUES (1, 0, 'gpt-test-2026', 'response', ?)", T(12));
      // A legacy conversation: no choices row.
      run("INSERT INTO assistant_sessions (id, title, created_at_utc, updated_at_utc) VALUES (2, 'Old chat', ?, ?)", T(11), T(11));
    }
    if (has(16)) {
      const vaultId = uuid(1);
      const root = path.join(vaultRoot, `svc-library-${vaultId}`);
      fs.mkdirSync(path.join(root, 'files'), { recursive: true, mode: 0o700 });
      run('INSERT INTO library_vaults (id, vault_id, root_path, label, created_at_utc) VALUES (1, ?, ?, ?, ?)', vaultId, root, 'Lab library', T(10));
      const text = 'Reef notes: bleaching at 1 degree above the summer maximum.\n';
      run(`INSERT INTO library_files (id, file_id, version_id, vault_id, original_name, name_fold, format, media_type, byte_size, sha256, relative_path, imported_at_utc)
           VALUES (1, ?, ?, ?, 'Reef Notes.txt', 'reef notes.txt', 'txt', 'text/plain', ?, ?, ?, ?)`, uuid(11), uuid(12), vaultId, Buffer.byteLength(text), sha(text), `files/${uuid(12)}.txt`, T(10));
      run("INSERT INTO library_paper_links (file_row, document_id, basis, linked_at_utc) VALUES (1, 1, 'import', ?)", T(10));
    }
    if (has(17)) {
      run('INSERT INTO evidence_projects (id, project_id, vault_id, name, revision, created_at_utc, updated_at_utc) VALUES (1, ?, ?, ?, 2, ?, ?)', uuid(21), uuid(1), 'Reef review', T(11), T(12));
      run('INSERT INTO evidence_project_files (id, project_row, file_row, added_at_utc) VALUES (1, 1, 1, ?)', T(11));
      run("INSERT INTO evidence_notes (id, project_row, file_row, kind, body, revision, created_at_utc, updated_at_utc) VALUES (1, 1, 1, 'plain', 'Check the threshold.', 1, ?, ?)", T(11), T(11));
      run(`INSERT INTO evidence_notes (id, project_row, file_row, kind, body, revision, page_basis, page, extraction_contract, page_sha256, start_codepoint, end_codepoint, quote, content_sha256, created_at_utc, updated_at_utc)
           VALUES (2, 1, 1, 'passage', 'The key number.', 2, 'physical', 1, 'text-v1', ?, 0, 10, 'Reef notes', ?, ?, ?)`, sha('page'), sha('content'), T(11), T(12));
    }
    if (has(18)) {
      run(`INSERT INTO evidence_answers (id, answer_id, project_row, preview_id, request_sha256, request_json, state, owner_runtime_id, route_digest, native_session_id, partial_text,
             output_json, usage_json, model_json, error_reason, error_message, completion, cleanup, created_at_utc, started_at_utc, finished_at_utc, updated_at_utc)
           VALUES (1, ?, 1, ?, ?, ?, 'succeeded', ?, ?, NULL, '1 degree', ?, ?, '{"model":"gpt-test-2026","source":"response"}', NULL, NULL, 'completed', 'confirmed', ?, ?, ?, ?)`,
      uuid(31), uuid(32), sha(ANSWER_REQUEST), ANSWER_REQUEST, runtime, sha('route'),
      JSON.stringify({ validated: false, text: '1 degree', reason: 'output_invalid', detail: 'not JSON' }),
      JSON.stringify({ input_tokens: 10, output_tokens: 3, provenance: 'reported', source: 'api_response_usage', billing: 'unknown' }), T(13), T(13), T(14), T(14));
    }
  })();
}

/** A selected-evidence request as schema 18's code stored it (canonical JSON). */
const ANSWER_REQUEST = JSON.stringify({
  version: 1, kind: 'svc-selected-answer-request', mode: 'answer', vault_id: uuid(1), project_id: uuid(21), project_revision: 2,
  instruction: 'What is the bleaching threshold?', choices: { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-test', effort: null },
  sources: [{ source_id: 'S01', source_sha256: sha('S01'), file_id: uuid(11), version_id: uuid(12), file_sha256: sha('file'), filename: 'Reef Notes.txt', media_type: 'text/plain',
    page_basis: 'physical', page: 1, page_count: 1, extraction_contract: 'text-v1', page_sha256: sha('page'), segment: 'page', start_codepoint: 0, end_codepoint: 10, text: 'Reef notes' }],
  notes: [], limitations: ['Only the selected text is sent.'],
});

export interface Snapshot {
  [table: string]: { columns: string[]; rows: string[] };
}

/** Every user table's rows (blobs as hex), sorted, with its columns; full-text shadow tables and the migration log left out. */
export function snapshot(db: Database, columnsOf?: Snapshot): Snapshot {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'documents_fts%' AND name <> 'schema_migrations' ORDER BY name").pluck().all() as string[]);
  const out: Snapshot = {};
  for (const table of tables) {
    if (columnsOf && !columnsOf[table]) continue;
    const columns = columnsOf?.[table]?.columns ?? (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
    const rows = (db.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`).all() as Record<string, unknown>[]).map((row) =>
      JSON.stringify(columns.map((c) => (Buffer.isBuffer(row[c]) ? `x'${(row[c] as Buffer).toString('hex')}'` : row[c]))),
    );
    out[table] = { columns, rows: rows.sort() };
  }
  return out;
}
