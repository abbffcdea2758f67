/**
 * The answers SQL: prepared once per database connection. Terminal updates
 * are single-winner (`WHERE state IN ('admitted', 'running')`): whoever
 * changes the row first decides the terminal state; later ones change nothing.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AnswerRow, AnswerState } from './types.js';

const COLUMNS = `a.id, a.answer_id, a.project_row, p.vault_id, p.project_id, a.preview_id, a.request_sha256, a.request_json, a.state,
  a.owner_runtime_id, a.route_digest, a.native_session_id, a.partial_text, a.output_json, a.usage_json, a.model_json,
  a.error_reason, a.error_message, a.completion, a.cleanup, a.created_at_utc, a.started_at_utc, a.finished_at_utc, a.updated_at_utc`;
const FROM = 'evidence_answers a JOIN evidence_projects p ON p.id = a.project_row';

export interface NewAnswer {
  answer_id: string;
  project_row: number;
  preview_id: string;
  request_sha256: string;
  request_json: string;
  owner_runtime_id: string;
  route_digest: string;
  created_at_utc: string;
}

export interface Terminal {
  state: Exclude<AnswerState, 'admitted' | 'running'>;
  output_json?: string | null;
  usage_json?: string | null;
  model_json?: string | null;
  error_reason?: string | null;
  error_message?: string | null;
  completion: 'completed' | 'unknown';
  cleanup: 'pending' | 'confirmed' | 'unknown';
  partial_text?: string;
}

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  const q = {
    byId: s(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.project_row = ? AND a.answer_id = ?`),
    byPreview: s(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.project_row = ? AND a.preview_id = ?`),
    count: s('SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS max_id FROM evidence_answers WHERE project_row = ?'),
    total: s('SELECT COUNT(*) AS n FROM evidence_answers WHERE project_row = ? AND id <= ?'),
    page: s(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.project_row = @projectRow AND a.id > @afterId AND a.id <= @throughId ORDER BY a.id LIMIT @limit`),
    insert: s(`INSERT INTO evidence_answers (answer_id, project_row, preview_id, request_sha256, request_json, state, owner_runtime_id, route_digest,
        created_at_utc, updated_at_utc) VALUES (@answer_id, @project_row, @preview_id, @request_sha256, @request_json, 'admitted', @owner_runtime_id,
        @route_digest, @created_at_utc, @created_at_utc)`),
    start: s(`UPDATE evidence_answers SET state = 'running', started_at_utc = ?, updated_at_utc = ? WHERE answer_id = ? AND state = 'admitted'`),
    prefix: s(`UPDATE evidence_answers SET partial_text = ?, updated_at_utc = ? WHERE answer_id = ? AND state = 'running'`),
    session: s(`UPDATE evidence_answers SET native_session_id = ?, updated_at_utc = ? WHERE answer_id = ? AND state = 'running'`),
    reports: s(`UPDATE evidence_answers SET usage_json = COALESCE(?, usage_json), model_json = COALESCE(?, model_json), updated_at_utc = ?
        WHERE answer_id = ? AND state = 'running'`),
    finish: s(`UPDATE evidence_answers SET state = @state, output_json = COALESCE(@output_json, output_json), usage_json = COALESCE(@usage_json, usage_json),
        model_json = COALESCE(@model_json, model_json), error_reason = @error_reason, error_message = @error_message, completion = @completion,
        cleanup = @cleanup, partial_text = COALESCE(@partial_text, partial_text), finished_at_utc = @at, updated_at_utc = @at
        WHERE answer_id = @answer_id AND state IN ('admitted', 'running')`),
    cleanup: s(`UPDATE evidence_answers SET cleanup = ?, updated_at_utc = ? WHERE answer_id = ? AND cleanup = 'pending'`),
    orphans: s(`SELECT answer_id FROM evidence_answers WHERE state IN ('admitted', 'running')`),
  };
  return {
    byId: (projectRow: number, answerId: string) => q.byId.get(projectRow, answerId) as AnswerRow | undefined,
    byPreview: (projectRow: number, previewId: string) => q.byPreview.get(projectRow, previewId) as AnswerRow | undefined,
    count: (projectRow: number) => q.count.get(projectRow) as { n: number; max_id: number },
    total: (projectRow: number, throughId: number) => (q.total.get(projectRow, throughId) as { n: number }).n,
    page: (p: { projectRow: number; afterId: number; throughId: number; limit: number }) => q.page.all(p) as AnswerRow[],
    insert: (row: NewAnswer) => void q.insert.run(row),
    start: (answerId: string, at: string) => q.start.run(at, at, answerId).changes === 1,
    prefix: (answerId: string, text: string, at: string) => q.prefix.run(text, at, answerId).changes === 1,
    session: (answerId: string, id: string, at: string) => void q.session.run(id, at, answerId),
    reports: (answerId: string, usageJson: string | null, modelJson: string | null, at: string) => void q.reports.run(usageJson, modelJson, at, answerId),
    /** The single-winner terminal update; answers whether this call won. */
    finish: (answerId: string, t: Terminal, at: string) =>
      q.finish.run({
        answer_id: answerId,
        at,
        output_json: null,
        usage_json: null,
        model_json: null,
        error_reason: null,
        error_message: null,
        partial_text: null,
        ...t,
      }).changes === 1,
    cleanup: (answerId: string, value: 'confirmed' | 'unknown', at: string) => void q.cleanup.run(value, at, answerId),
    orphans: () => (q.orphans.all() as { answer_id: string }[]).map((r) => r.answer_id),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}

export type AnswersRepo = ReturnType<typeof prepare>;
const cache = new WeakMap<Database, AnswersRepo>();

export function answersRepo(db: Database): AnswersRepo {
  let repo = cache.get(db);
  if (!repo) {
    repo = prepare(db);
    cache.set(db, repo);
  }
  return repo;
}
