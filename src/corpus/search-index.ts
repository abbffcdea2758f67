/**
 * What is derived from documents in batches: the full-text index (FTS5 over
 * title, abstract, authors) and the explorer's facet rows (document_authors,
 * document_categories; migration 13). Merges queue changed documents, and the
 * flush derives the whole queue in a few statements, so each index page is
 * written once per flush instead of once per merged page. Runs call it after
 * each stored batch (while the next page is asked) and when they end;
 * anything that queries documents_fts, document_authors or
 * document_categories must call it first.
 */
import type { Database, Statement } from 'better-sqlite3';

/** Every document whose facet rows are due: new ones (queued for the full-text index) and changed ones. */
const DUE = '(SELECT id FROM documents_fts_pending UNION SELECT id FROM document_facets_pending)';

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    ftsPending: s('SELECT EXISTS (SELECT 1 FROM documents_fts_pending)').pluck(),
    facetsPending: s('SELECT EXISTS (SELECT 1 FROM document_facets_pending)').pluck(),
    ftsInsert: s(`INSERT INTO documents_fts (rowid, title, abstract, authors_text)
                  SELECT d.id, d.title, d.abstract, d.authors_text FROM documents_fts_pending p JOIN documents d ON d.id = p.id`),
    // Facet rows: the old ones go (their counts go down, by trigger), the new ones are derived from
    // the document's own lists and counted here, once per value per batch (migration 13).
    facets: [
      `DELETE FROM document_authors WHERE document_id IN ${DUE}`,
      `DELETE FROM document_categories WHERE document_id IN ${DUE}`,
      `INSERT OR IGNORE INTO document_authors (document_id, position, author_key, name)
         SELECT d.id, j.key, lower(trim(j.value ->> '$.name')), j.value ->> '$.name'
         FROM ${DUE} p JOIN documents d ON d.id = p.id, json_each(d.authors_json) j
         WHERE trim(coalesce(j.value ->> '$.name', '')) <> ''`,
      `INSERT OR IGNORE INTO document_categories (document_id, category)
         SELECT d.id, j.value FROM ${DUE} p JOIN documents d ON d.id = p.id, json_each(d.categories_json) j
         WHERE j.type = 'text' AND j.value <> ''`,
      `INSERT INTO explorer_facet_counts (facet, value, count)
         SELECT 'authors', author_key, count(DISTINCT document_id) FROM document_authors WHERE document_id IN ${DUE} GROUP BY author_key
         ON CONFLICT (facet, value) DO UPDATE SET count = count + excluded.count`,
      `INSERT INTO explorer_facet_counts (facet, value, count)
         SELECT 'categories', category, count(*) FROM document_categories WHERE document_id IN ${DUE} GROUP BY category
         ON CONFLICT (facet, value) DO UPDATE SET count = count + excluded.count`,
      'DELETE FROM document_facets_pending',
      'DELETE FROM documents_fts_pending',
    ].map(s),
  };
}

const cache = new WeakMap<Database, ReturnType<typeof prepare>>();
const statements = (db: Database) => {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  return st;
};

/** Whether anything is queued (cheap: two seeks). */
export function searchIndexPending(db: Database): boolean {
  const st = statements(db);
  return Boolean(st.ftsPending.get() || st.facetsPending.get());
}

/** Derive everything queued; answers how many documents the full-text index took in. */
export function flushSearchIndex(db: Database): number {
  const st = statements(db);
  return db.transaction(() => {
    if (!st.ftsPending.get() && !st.facetsPending.get()) return 0;
    const indexed = st.ftsInsert.run().changes;
    st.facets.forEach((statement: Statement) => statement.run());
    return indexed;
  })();
}

/** Document ids matching an FTS5 query, best first (flushes the queue first). */
export function searchDocumentIds(db: Database, match: string, limit = 100): number[] {
  flushSearchIndex(db);
  return db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?').pluck().all(match, limit) as number[];
}
