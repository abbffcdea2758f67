/** The reading queue's SQL, prepared once per connection. */
import type { Database } from 'better-sqlite3';

export interface QueueRow {
  document_id: number;
  status: 'unread' | 'read';
  saved_at_utc: string;
  read_at_utc: string | null;
  updated_at_utc: string;
}

const MATCHES_EVERY_WORD = `NOT EXISTS (SELECT 1 FROM json_each(@words) w WHERE instr(lower(d.title || ' ' || d.authors_text), w.value) = 0)`;

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    get: s('SELECT * FROM reading_queue WHERE document_id = ?'),
    documentExists: s('SELECT 1 FROM documents WHERE id = ?').pluck(),
    insert: s(`INSERT INTO reading_queue (document_id, status, saved_at_utc, read_at_utc, updated_at_utc) VALUES (?, 'unread', ?, NULL, ?)
               ON CONFLICT (document_id) DO NOTHING`),
    setStatus: s(`UPDATE reading_queue SET status = @status, read_at_utc = CASE WHEN @status = 'read' THEN coalesce(read_at_utc, @now) ELSE NULL END,
                  updated_at_utc = @now WHERE document_id = @id AND status <> @status`),
    remove: s('DELETE FROM reading_queue WHERE document_id = ?'),
    pageAll: s('SELECT * FROM reading_queue ORDER BY saved_at_utc DESC, document_id DESC LIMIT ? OFFSET ?'),
    pageByStatus: s('SELECT * FROM reading_queue WHERE status = ? ORDER BY saved_at_utc DESC, document_id DESC LIMIT ? OFFSET ?'),
    counts: s('SELECT status, count(*) AS n FROM reading_queue GROUP BY status'),
    // @words: a JSON array of lower-case words, each of which the title or an author's name must contain.
    pageMatching: s(`SELECT q.* FROM reading_queue q JOIN documents d ON d.id = q.document_id
                     WHERE (@status = 'all' OR q.status = @status) AND ${MATCHES_EVERY_WORD}
                     ORDER BY q.saved_at_utc DESC, q.document_id DESC LIMIT @limit OFFSET @offset`),
    countsMatching: s(`SELECT q.status, count(*) AS n FROM reading_queue q JOIN documents d ON d.id = q.document_id
                       WHERE ${MATCHES_EVERY_WORD} GROUP BY q.status`),
  };
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database, Statements>();

export function queueStatements(db: Database): Statements {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  return st;
}
