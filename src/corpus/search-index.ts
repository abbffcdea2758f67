/**
 * The full-text index (FTS5 over title, abstract, authors) is brought up to
 * date in batches: merges queue changed documents, and this indexes the queue
 * in one statement. Runs call it when they end; anything that queries
 * documents_fts must call it first.
 */
import type { Database } from 'better-sqlite3';

export function flushSearchIndex(db: Database): number {
  return db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO documents_fts (rowid, title, abstract, authors_text)
         SELECT d.id, d.title, d.abstract, d.authors_text FROM documents_fts_pending p JOIN documents d ON d.id = p.id`,
      )
      .run();
    db.prepare('DELETE FROM documents_fts_pending').run();
    return info.changes;
  })();
}

/** Document ids matching an FTS5 query, best first (flushes the queue first). */
export function searchDocumentIds(db: Database, match: string, limit = 100): number[] {
  flushSearchIndex(db);
  return db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?').pluck().all(match, limit) as number[];
}
