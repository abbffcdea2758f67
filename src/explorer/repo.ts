/**
 * The explorer's SQL. A filter set becomes one WHERE clause over `documents d`
 * whose shape depends only on which filters are present (value lists travel
 * as one JSON parameter), so each shape is prepared once per connection and
 * reused.
 */
import type { Database, Statement } from 'better-sqlite3';
import { flushSearchIndex } from '../corpus/search-index.js';
import type { Filters } from './filters.js';
import { ftsExpression } from './fts-query.js';

export type FacetName = 'authors' | 'categories' | 'sources';

export interface Where {
  sql: string;
  args: unknown[];
}

/** Lower-case ASCII only, as SQLite's lower() keys document_authors. */
export const authorKey = (name: string) => name.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * A date window matches papers whose published period overlaps it: a paper
 * dated 2020 (sort_date 2020-00-00) or 2020-05 (2020-05-00) is inside a window
 * starting 2020-05-10. Undated papers never match a window.
 */
export function filterWhere(filters: Filters, omit?: FacetName | 'query' | 'dates', queryPlan: 'set' | 'probe' = 'set'): Where {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (filters.query && omit !== 'query') {
    // set: materialize the matches (best when few); probe: test each row met in index order (best when many).
    parts.push(queryPlan === 'set' ? 'd.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)' : 'EXISTS (SELECT 1 FROM documents_fts f WHERE f.rowid = d.id AND documents_fts MATCH ?)');
    args.push(ftsExpression(filters.query));
  }
  if (filters.authors.length && omit !== 'authors') {
    parts.push('d.id IN (SELECT document_id FROM document_authors WHERE author_key IN (SELECT value FROM json_each(?)))');
    args.push(JSON.stringify(filters.authors.map(authorKey)));
  }
  if (filters.categories.length && omit !== 'categories') {
    parts.push('d.id IN (SELECT document_id FROM document_categories WHERE category IN (SELECT value FROM json_each(?)))');
    args.push(JSON.stringify(filters.categories));
  }
  if (filters.sources.length && omit !== 'sources') {
    parts.push('d.id IN (SELECT document_id FROM document_sources WHERE source IN (SELECT value FROM json_each(?)))');
    args.push(JSON.stringify(filters.sources));
  }
  if (filters.dateFrom && omit !== 'dates') {
    parts.push(`d.sort_date <> '' AND (d.sort_date >= ? OR d.sort_date IN (?, ?))`);
    args.push(filters.dateFrom, `${filters.dateFrom.slice(0, 4)}-00-00`, `${filters.dateFrom.slice(0, 7)}-00`);
  }
  if (filters.dateTo && omit !== 'dates') {
    parts.push(`d.sort_date <> '' AND d.sort_date <= ?`);
    args.push(filters.dateTo);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', args };
}

const statementCache = new WeakMap<Database, Map<string, Statement>>();

/** A statement prepared once per connection and SQL text (the shapes are few). */
export function prepared(db: Database, sql: string): Statement {
  let map = statementCache.get(db);
  if (!map) statementCache.set(db, (map = new Map()));
  let st = map.get(sql);
  if (!st) {
    st = db.prepare(sql);
    if (map.size > 500) map.clear();
    map.set(sql, st);
  }
  return st;
}

/** Bring the full-text index up to date before a query that uses it (cheap when nothing is queued). */
export function ensureIndexed(db: Database): void {
  if (prepared(db, 'SELECT EXISTS (SELECT 1 FROM documents_fts_pending)').pluck().get()) flushSearchIndex(db);
}

/**
 * How many papers contain the query's rarest plain word (from the FTS5
 * vocabulary, one seek per word): an upper bound on the matches, used to pick
 * the query plan. Null when the query has no plain word (prefixes only).
 */
export function estimateMatches(db: Database, query: string): number | null {
  const words = [...ftsExpression(query).matchAll(/(?<!NOT )"([^" ]+)"(?!\*)/g)].map((m) => m[1]!.toLowerCase());
  if (words.length === 0) return null;
  const lookup = prepared(db, 'SELECT doc FROM documents_fts_vocab WHERE term = ?').pluck();
  return Math.min(...words.map((w) => (lookup.get(w) as number | undefined) ?? 0));
}

/** Whether walking the corpus order and probing each row beats materializing the matches. */
export function probeIsCheaper(db: Database, query: string): boolean {
  const estimate = estimateMatches(db, query);
  if (estimate === null) return false;
  const total = prepared(db, 'SELECT max(id) FROM documents').pluck().get() as number | null;
  return total !== null && estimate > 5_000 && estimate * 20 > total;
}
