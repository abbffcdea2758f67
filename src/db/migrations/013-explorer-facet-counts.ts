import type { Migration } from '../migration.js';

const bump = (facet: string, value: string, by: '+ 1' | '- 1') =>
  by === '+ 1'
    ? `INSERT INTO explorer_facet_counts (facet, value, count) VALUES ('${facet}', ${value}, 1) ON CONFLICT (facet, value) DO UPDATE SET count = count + 1;`
    : `UPDATE explorer_facet_counts SET count = count - 1 WHERE facet = '${facet}' AND value = ${value};`;

/**
 * Explorer at scale (issue 11 items 8 and 9).
 *
 * 1. explorer_facet_counts: per facet value, how many papers carry it (a
 *    paper once per value: an author named twice on one paper counts one),
 *    kept exact as those rows change, so whole-corpus facets are a read of a
 *    few hundred rows instead of a scan of millions. Years count documents by
 *    year ('undated' for none). Values whose count fell to 0 stay as rows with
 *    count 0; readers skip them. Triggers count deletes, moves and, for years
 *    and sources, inserts; author and category rows are inserted only by
 *    flushSearchIndex(), which adds their counts in one grouped statement per
 *    batch (per-row counting cost a fifth of a merge).
 * 2. document_authors and document_categories are derived in batches, as the
 *    full-text index is: a new document is already queued for the full-text
 *    index (documents_fts_pending), a changed author or category list queues it
 *    in document_facets_pending, and flushSearchIndex() derives the rows for
 *    both queues in a few statements. Per-row triggers dirtied hundreds of
 *    scattered index pages per merged page of records (the by-key indexes);
 *    one batch per run writes each page once. Folding moves rows and queues the
 *    kept document, so its rows are rederived from its own lists.
 * 3. Provenance's per-document index also holds the source, so "sources of
 *    these papers" is read from the index without the (large) record rows.
 */
export const explorerFacetCounts: Migration = {
  version: 13,
  name: 'explorer-facet-counts',
  creates: ['explorer_facet_counts', 'document_facets_pending', 'document_sources_by_document_source'],
  up(db) {
    db.exec(`
      CREATE TABLE explorer_facet_counts (
        facet TEXT NOT NULL CHECK (facet IN ('authors', 'categories', 'sources', 'years')),
        value TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (facet, value)
      ) WITHOUT ROWID;

      CREATE TRIGGER facet_count_category_delete AFTER DELETE ON document_categories BEGIN ${bump('categories', 'old.category', '- 1')} END;
      CREATE TRIGGER facet_count_category_update AFTER UPDATE OF category ON document_categories WHEN old.category IS NOT new.category BEGIN
        ${bump('categories', 'old.category', '- 1')} ${bump('categories', 'new.category', '+ 1')}
      END;

      CREATE TRIGGER facet_count_author_delete AFTER DELETE ON document_authors
      WHEN NOT EXISTS (SELECT 1 FROM document_authors WHERE document_id = old.document_id AND author_key = old.author_key)
      BEGIN ${bump('authors', 'old.author_key', '- 1')} END;
      CREATE TRIGGER facet_count_author_update_old AFTER UPDATE OF document_id, author_key ON document_authors
      WHEN (old.document_id IS NOT new.document_id OR old.author_key IS NOT new.author_key)
        AND NOT EXISTS (SELECT 1 FROM document_authors WHERE document_id = old.document_id AND author_key = old.author_key)
      BEGIN ${bump('authors', 'old.author_key', '- 1')} END;
      CREATE TRIGGER facet_count_author_update_new AFTER UPDATE OF document_id, author_key ON document_authors
      WHEN (old.document_id IS NOT new.document_id OR old.author_key IS NOT new.author_key)
        AND NOT EXISTS (SELECT 1 FROM document_authors WHERE document_id = new.document_id AND author_key = new.author_key AND position <> new.position)
      BEGIN ${bump('authors', 'new.author_key', '+ 1')} END;

      CREATE TRIGGER facet_count_source_insert AFTER INSERT ON document_sources
      WHEN NOT EXISTS (SELECT 1 FROM document_sources WHERE source = new.source AND document_id = new.document_id AND id <> new.id)
      BEGIN ${bump('sources', 'new.source', '+ 1')} END;
      CREATE TRIGGER facet_count_source_delete AFTER DELETE ON document_sources
      WHEN NOT EXISTS (SELECT 1 FROM document_sources WHERE source = old.source AND document_id = old.document_id)
      BEGIN ${bump('sources', 'old.source', '- 1')} END;
      CREATE TRIGGER facet_count_source_update_old AFTER UPDATE OF document_id, source ON document_sources
      WHEN (old.document_id IS NOT new.document_id OR old.source IS NOT new.source)
        AND NOT EXISTS (SELECT 1 FROM document_sources WHERE source = old.source AND document_id = old.document_id)
      BEGIN ${bump('sources', 'old.source', '- 1')} END;
      CREATE TRIGGER facet_count_source_update_new AFTER UPDATE OF document_id, source ON document_sources
      WHEN (old.document_id IS NOT new.document_id OR old.source IS NOT new.source)
        AND NOT EXISTS (SELECT 1 FROM document_sources WHERE source = new.source AND document_id = new.document_id AND id <> new.id)
      BEGIN ${bump('sources', 'new.source', '+ 1')} END;

      CREATE TRIGGER facet_count_year_insert AFTER INSERT ON documents BEGIN ${bump('years', "coalesce(CAST(new.year AS TEXT), 'undated')", '+ 1')} END;
      CREATE TRIGGER facet_count_year_delete AFTER DELETE ON documents BEGIN ${bump('years', "coalesce(CAST(old.year AS TEXT), 'undated')", '- 1')} END;
      CREATE TRIGGER facet_count_year_update AFTER UPDATE OF year ON documents WHEN old.year IS NOT new.year BEGIN
        ${bump('years', "coalesce(CAST(old.year AS TEXT), 'undated')", '- 1')} ${bump('years', "coalesce(CAST(new.year AS TEXT), 'undated')", '+ 1')}
      END;

      DROP TRIGGER document_facets_insert;
      DROP TRIGGER document_facets_authors;
      DROP TRIGGER document_facets_categories;
      CREATE TABLE document_facets_pending (id INTEGER PRIMARY KEY);
      CREATE TRIGGER document_facets_queue_update AFTER UPDATE OF authors_json, categories_json ON documents
      WHEN old.authors_json IS NOT new.authors_json OR old.categories_json IS NOT new.categories_json BEGIN
        INSERT OR IGNORE INTO document_facets_pending (id) VALUES (new.id);
      END;
      CREATE TRIGGER document_facets_queue_delete AFTER DELETE ON documents BEGIN
        DELETE FROM document_facets_pending WHERE id = old.id;
      END;
      CREATE TRIGGER document_facets_queue_moved_authors AFTER UPDATE OF document_id ON document_authors BEGIN
        INSERT OR IGNORE INTO document_facets_pending (id) VALUES (new.document_id);
      END;
      CREATE TRIGGER document_facets_queue_moved_categories AFTER UPDATE OF document_id ON document_categories BEGIN
        INSERT OR IGNORE INTO document_facets_pending (id) VALUES (new.document_id);
      END;

      DROP INDEX document_sources_by_document;
      CREATE INDEX document_sources_by_document_source ON document_sources (document_id, source);

      INSERT INTO explorer_facet_counts (facet, value, count) SELECT 'categories', category, count(*) FROM document_categories GROUP BY category;
      INSERT INTO explorer_facet_counts (facet, value, count) SELECT 'authors', author_key, count(DISTINCT document_id) FROM document_authors GROUP BY author_key;
      INSERT INTO explorer_facet_counts (facet, value, count) SELECT 'sources', source, count(DISTINCT document_id) FROM document_sources GROUP BY source;
      INSERT INTO explorer_facet_counts (facet, value, count) SELECT 'years', coalesce(CAST(year AS TEXT), 'undated'), count(*) FROM documents GROUP BY year;
    `);
  },
};
