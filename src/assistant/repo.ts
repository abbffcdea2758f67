/** The assistant's SQL: conversations, messages, bindings, turn choices and model reports. */
import type { Database } from 'better-sqlite3';
import type { ModelReportSource, Runtime } from '../wire/assistant.js';

export interface SessionRow {
  id: number;
  title: string | null;
  runtime: string | null;
  model: string | null;
  native_session_id: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface SessionListRow extends SessionRow {
  message_count: number;
}

export interface ChoicesRow {
  session_id: number;
  version: number;
  runtime: string;
  provider: string;
  requested_model: string | null;
  requested_effort: string | null;
  model_basis: string;
  effort_basis: string;
  binding_basis: string;
  route_digest: string;
  created_at_utc: string;
}

export interface MessageRow {
  id: number;
  session_id: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  created_at_utc: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  tool_calls_json: string | null;
  tool_results_json: string | null;
}

export interface TurnRow {
  id: number;
  session_id: number;
  user_message_id: number;
  assistant_message_id: number | null;
  /** A turn's requested choices are written from a checked choices object (admission) and never changed. */
  version: 1;
  runtime: Runtime;
  provider: string;
  requested_model: string | null;
  requested_effort: string | null;
  created_at_utc: string;
  /** Session of the linked assistant message (null when absent or missing). */
  reply_session_id: number | null;
}

export interface ReportRow {
  turn_id: number;
  sequence: number;
  model: string;
  source: ModelReportSource;
  observed_at_utc: string;
}

/** Title as shown: "New conversation" when stored absent or empty. */
export const DISPLAY_TITLE_SQL = `COALESCE(NULLIF(s.title, ''), 'New conversation')`;

const LIST_COLUMNS = `s.*, (SELECT COUNT(*) FROM assistant_messages m WHERE m.session_id = s.id) AS message_count`;

export function insertSession(db: Database, row: { title: string | null; runtime: string | null; model: string | null; at: string }): number {
  const info = db
    .prepare('INSERT INTO assistant_sessions (title, runtime, model, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, ?)')
    .run(row.title, row.runtime, row.model, row.at, row.at);
  return Number(info.lastInsertRowid);
}

export function insertChoices(db: Database, row: ChoicesRow): void {
  db.prepare(
    `INSERT INTO assistant_session_choices (session_id, version, runtime, provider, requested_model, requested_effort, model_basis, effort_basis, binding_basis, route_digest, created_at_utc)
     VALUES (@session_id, @version, @runtime, @provider, @requested_model, @requested_effort, @model_basis, @effort_basis, @binding_basis, @route_digest, @created_at_utc)`,
  ).run(row);
}

export function getSession(db: Database, id: number): SessionRow | undefined {
  return db.prepare('SELECT * FROM assistant_sessions WHERE id = ?').get(id) as SessionRow | undefined;
}

export function getChoices(db: Database, sessionId: number): ChoicesRow | undefined {
  return db.prepare('SELECT * FROM assistant_session_choices WHERE session_id = ?').get(sessionId) as ChoicesRow | undefined;
}

export function choicesFor(db: Database, ids: number[]): Map<number, ChoicesRow> {
  if (ids.length === 0) return new Map();
  const rows = db.prepare(`SELECT * FROM assistant_session_choices WHERE session_id IN (${ids.map(() => '?').join(',')})`).all(...ids) as ChoicesRow[];
  return new Map(rows.map((r) => [r.session_id, r]));
}

/** The legacy list: most recently updated first. */
export function listSessions(db: Database, limit: number): SessionListRow[] {
  return db.prepare(`SELECT ${LIST_COLUMNS} FROM assistant_sessions s ORDER BY s.updated_at_utc DESC, s.id DESC LIMIT ?`).all(limit) as SessionListRow[];
}

export function maxSessionId(db: Database): number {
  return (db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM assistant_sessions').get() as { id: number }).id;
}

/**
 * Keyset page by id descending under a frozen ceiling; `text` a literal substring of the displayed
 * title, ASCII case folded (SQLite's lower() folds ASCII only). instr, not LIKE: no character of
 * the text is a wildcard, and LIKE stops reading a pattern at a NUL, so "a\0b" would match
 * every title holding "a".
 */
export function browseSessions(db: Database, q: { throughId: bigint; beforeId: bigint | null; text: string | null; limit: number }): SessionListRow[] {
  const where = ['s.id <= @through'];
  if (q.beforeId !== null) where.push('s.id < @before');
  if (q.text !== null) where.push(`instr(lower(${DISPLAY_TITLE_SQL}), lower(@text)) > 0`);
  return db
    .prepare(`SELECT ${LIST_COLUMNS} FROM assistant_sessions s WHERE ${where.join(' AND ')} ORDER BY s.id DESC LIMIT @limit`)
    .safeIntegers(false)
    .all({ through: q.throughId, before: q.beforeId, text: q.text, limit: q.limit }) as SessionListRow[];
}

export function deleteSession(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM assistant_sessions WHERE id = ?').run(id).changes > 0;
}

export function messagesOf(db: Database, sessionId: number): MessageRow[] {
  return db.prepare('SELECT * FROM assistant_messages WHERE session_id = ? ORDER BY id').all(sessionId) as MessageRow[];
}

export function insertMessage(
  db: Database,
  row: { session_id: number; role: MessageRow['role']; content: string; at: string; input_tokens?: number | null; output_tokens?: number | null; cost_usd?: number | null; tool_calls_json?: string | null; tool_results_json?: string | null },
): number {
  return db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO assistant_messages (session_id, role, content, created_at_utc, input_tokens, output_tokens, cost_usd, tool_calls_json, tool_results_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(row.session_id, row.role, row.content, row.at, row.input_tokens ?? null, row.output_tokens ?? null, row.cost_usd ?? null, row.tool_calls_json ?? null, row.tool_results_json ?? null);
    db.prepare('UPDATE assistant_sessions SET updated_at_utc = ? WHERE id = ?').run(row.at, row.session_id);
    return Number(info.lastInsertRowid);
  })();
}

export function insertTurn(db: Database, row: Omit<TurnRow, 'id' | 'assistant_message_id' | 'reply_session_id'>): number {
  const info = db
    .prepare(
      `INSERT INTO assistant_turn_choices (session_id, user_message_id, version, runtime, provider, requested_model, requested_effort, created_at_utc)
       VALUES (@session_id, @user_message_id, @version, @runtime, @provider, @requested_model, @requested_effort, @created_at_utc)`,
    )
    .run(row);
  return Number(info.lastInsertRowid);
}

export function linkTurnReply(db: Database, turnId: number, assistantMessageId: number): void {
  db.prepare('UPDATE assistant_turn_choices SET assistant_message_id = ? WHERE id = ?').run(assistantMessageId, turnId);
}

export function turnsOf(db: Database, sessionId: number): TurnRow[] {
  return db
    .prepare(
      `SELECT t.*, m.session_id AS reply_session_id FROM assistant_turn_choices t
       LEFT JOIN assistant_messages m ON m.id = t.assistant_message_id
       WHERE t.session_id = ? ORDER BY t.id`,
    )
    .all(sessionId) as TurnRow[];
}

export function reportsOf(db: Database, sessionId: number): ReportRow[] {
  return db
    .prepare(
      `SELECT r.* FROM assistant_model_reports r JOIN assistant_turn_choices t ON t.id = r.turn_id
       WHERE t.session_id = ? ORDER BY r.turn_id, r.sequence`,
    )
    .all(sessionId) as ReportRow[];
}

/** Record one more report for a turn; answers its sequence (1, 2, …). */
export function insertReport(db: Database, turnId: number, model: string, source: ModelReportSource, at: string): number {
  return db.transaction(() => {
    const next = (db.prepare('SELECT COALESCE(MAX(sequence), 0) + 1 AS n FROM assistant_model_reports WHERE turn_id = ?').get(turnId) as { n: number }).n;
    db.prepare('INSERT INTO assistant_model_reports (turn_id, sequence, model, source, observed_at_utc) VALUES (?, ?, ?, ?, ?)').run(turnId, next, model, source, at);
    return next;
  })();
}

export function setNativeSession(db: Database, sessionId: number, nativeId: string | null): void {
  db.prepare('UPDATE assistant_sessions SET native_session_id = ? WHERE id = ?').run(nativeId, sessionId);
}
