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

/**
 * Every document whose facet rows are due, up to id @through: new ones (queued for the full-text
 * index) and changed ones. The whole queue at once, or a slice of it (flushSearchIndexInTurns).
 */
const DUE = '(SELECT id FROM documents_fts_pending WHERE id <= @through UNION SELECT id FROM document_facets_pending WHERE id <= @through)';
/** Larger than any document id: the whole queue. */
const ALL = Number.MAX_SAFE_INTEGER;
/**
 * A slice of the queue derives at most about this many bytes of author names (some 2,000 names,
 * one collaboration paper; hundreds of ordinary papers), or one document when that alone is more.
 * The cost is the writing: a document_authors row, its author_key index entry and its facet count
 * per name, 10 to 25 µs each here, so 100 papers of 2,000 authors took 1.5 to 4 s in one flush.
 */
const SLICE_NAME_BYTES = 48 * 1024;

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    ftsPending: s('SELECT EXISTS (SELECT 1 FROM documents_fts_pending)').pluck(),
    facetsPending: s('SELECT EXISTS (SELECT 1 FROM document_facets_pending)').pluck(),
    ftsInsert: s(`INSERT INTO documents_fts (rowid, title, abstract, authors_text)
                  SELECT d.id, d.title, d.abstract, d.authors_text FROM documents_fts_pending p JOIN documents d ON d.id = p.id WHERE p.id <= @through`),
    // The queue with the bytes of each document's author names, in id order (a document gone since it was queued: none).
    due: s(`SELECT p.id, octet_length(d.authors_text) AS bytes FROM ${DUE} p LEFT JOIN documents d ON d.id = p.id ORDER BY p.id`),
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
      'DELETE FROM document_facets_pending WHERE id <= @through',
      'DELETE FROM documents_fts_pending WHERE id <= @through',
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

/** Derive everything queued up to document id `through`, in one transaction; answers how many documents the full-text index took in. */
function flushThrough(db: Database, through: number): number {
  const st = statements(db);
  return db.transaction(() => {
    if (!st.ftsPending.get() && !st.facetsPending.get()) return 0;
    const indexed = st.ftsInsert.run({ through }).changes;
    st.facets.forEach((statement: Statement) => statement.run({ through }));
    return indexed;
  })();
}

/** Derive everything queued; answers how many documents the full-text index took in. */
export function flushSearchIndex(db: Database): number {
  return flushThrough(db, ALL);
}

/** The last document id of the next slice of the queue (SLICE_NAME_BYTES); undefined when nothing is queued. */
function nextSliceEnd(db: Database): number | undefined {
  let end: number | undefined;
  let bytes = 0;
  for (const row of statements(db).due.iterate({ through: ALL }) as IterableIterator<{ id: number; bytes: number | null }>) {
    bytes += row.bytes ?? 0;
    if (end !== undefined && bytes > SLICE_NAME_BYTES) break;
    end = row.id;
  }
  return end;
}

/**
 * Derive everything queued, a slice of documents per transaction with a turn of the event loop
 * between slices, so requests are answered while a page of collaboration papers is indexed. Each
 * slice is whole (rows, counts and its queue entries go together), so stopping between two leaves
 * the rest queued for the next flush. Answers how many documents the full-text index took in.
 *
 * @example await flushSearchIndexInTurns(ctx.db, ioTurn)
 */
export async function flushSearchIndexInTurns(db: Database, turn: () => Promise<void>): Promise<number> {
  let indexed = 0;
  for (let end = nextSliceEnd(db); end !== undefined; end = nextSliceEnd(db)) {
    indexed += flushThrough(db, end);
    await turn();
  }
  return indexed;
}

/** Document ids matching an FTS5 query, best first (flushes the queue first). */
export function searchDocumentIds(db: Database, match: string, limit = 100): number[] {
  flushSearchIndex(db);
  return db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?').pluck().all(match, limit) as number[];
}
