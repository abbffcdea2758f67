/**
 * The explorer's SQL. A filter set becomes one WHERE clause over `documents d`
 * whose shape depends only on which filters are present (value lists travel
 * as one JSON parameter), so each shape is prepared once per connection and
 * reused.
 */
import type { Database, Statement } from 'better-sqlite3';
import { flushSearchIndex, searchIndexPending } from '../corpus/search-index.js';
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
export function filterWhere(filters: Filters, omit?: FacetName | 'query' | 'dates'): Where {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (filters.query && omit !== 'query') {
    parts.push('d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)');
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

/** Bring the full-text index and facet rows up to date before a query that uses it (cheap when nothing is queued). */
export function ensureIndexed(db: Database): void {
  if (searchIndexPending(db)) flushSearchIndex(db);
}

/** Below this many matches a query's papers are read and sorted; from it on, the date index is walked. */
export const WALK_MIN_MATCHES = 2_000;

/**
 * How the newest-first page of a query is read. "set": read every match and
 * sort (cheap while they are few). "walk": walk the date index newest first,
 * keeping rows whose id is in the match set (materialized once); about
 * corpus / matches × limit index entries are stepped over, so it pays once the
 * matches are many. Structured filters (authors, categories, sources) leave the
 * choice to SQLite. The match count is read from the index, capped.
 */
export function newestPlan(db: Database, filters: Filters): 'set' | 'walk' {
  if (!filters.query || filters.authors.length || filters.categories.length || filters.sources.length) return 'set';
  const count = prepared(db, 'SELECT count(*) FROM (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? LIMIT ?)').pluck().get(ftsExpression(filters.query), WALK_MIN_MATCHES) as number;
  return count >= WALK_MIN_MATCHES ? 'walk' : 'set';
}
