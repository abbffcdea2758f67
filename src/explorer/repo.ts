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

export interface WhereOptions {
  /** The expression naming the paper's id (default d.id: documents aliased d). */
  id?: string;
  /** Test authors, categories and sources per row by a seek instead of listing their papers. */
  probe?: boolean;
  /** Test the query per row in the full-text index too (pays only when most rows match). */
  probeQuery?: boolean;
}

/**
 * A date window matches papers whose published period overlaps it: a paper
 * dated 2020 (sort_date 2020-00-00) or 2020-05 (2020-05-00) is inside a window
 * starting 2020-05-10. Undated papers never match a window.
 */
export function filterWhere(filters: Filters, omit?: FacetName | 'query' | 'dates', how: WhereOptions = {}): Where {
  const parts: string[] = [];
  const args: unknown[] = [];
  const id = how.id ?? 'd.id';
  // set: the papers carrying a value are listed once (best when few); probe: each row met is tested by a seek (best when many).
  const test = (table: string, column: string, index = '') =>
    how.probe
      ? `EXISTS (SELECT 1 FROM ${table} x${index} WHERE x.document_id = ${id} AND x.${column} IN (SELECT value FROM json_each(?)))`
      : `${id} IN (SELECT document_id FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?)))`;
  if (filters.query && omit !== 'query') {
    parts.push(how.probeQuery ? `EXISTS (SELECT 1 FROM documents_fts f WHERE f.rowid = ${id} AND documents_fts MATCH ?)` : `${id} IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)`);
    args.push(ftsExpression(filters.query));
  }
  if (filters.authors.length && omit !== 'authors') {
    parts.push(test('document_authors', 'author_key'));
    args.push(JSON.stringify(filters.authors.map(authorKey)));
  }
  if (filters.categories.length && omit !== 'categories') {
    parts.push(test('document_categories', 'category'));
    args.push(JSON.stringify(filters.categories));
  }
  if (filters.sources.length && omit !== 'sources') {
    parts.push(test('document_sources', 'source', ' INDEXED BY document_sources_by_document_source'));
    args.push(JSON.stringify(filters.sources));
  }
  if (filters.dateFrom && omit !== 'dates') {
    // The first bound is implied by the rest; it lets the date index be read as a range.
    parts.push(`d.sort_date >= ? AND (d.sort_date >= ? OR d.sort_date IN (?, ?))`);
    args.push(`${filters.dateFrom.slice(0, 4)}-00-00`, filters.dateFrom, `${filters.dateFrom.slice(0, 4)}-00-00`, `${filters.dateFrom.slice(0, 7)}-00`);
  }
  if (filters.dateTo && omit !== 'dates') {
    parts.push(`d.sort_date <> '' AND d.sort_date <= ?`);
    args.push(filters.dateTo);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', args };
}

/**
 * The ids of the papers matching the filters (but `omit`), most recently added
 * first (LIMIT is the last argument): driven by the smallest structure that
 * can list them in id order — the full-text index for a query, else the
 * category, author or source rows — with the other filters tested per id, so
 * the (large) document rows are read only for a date window.
 */
export function matchingIdsWhere(filters: Filters, omit?: FacetName | 'query' | 'dates'): Where {
  const f: Filters = {
    ...filters,
    query: omit === 'query' ? null : filters.query,
    authors: omit === 'authors' ? [] : filters.authors,
    categories: omit === 'categories' ? [] : filters.categories,
    sources: omit === 'sources' ? [] : filters.sources,
    dateFrom: omit === 'dates' ? null : filters.dateFrom,
    dateTo: omit === 'dates' ? null : filters.dateTo,
  };
  const listed = (table: string, column: string, values: string[], distinct: boolean) => ({
    sql: `SELECT ${distinct ? 'DISTINCT ' : ''}document_id AS id FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`,
    args: [JSON.stringify(values)],
  });
  const others = Boolean(f.query || f.dateFrom || f.dateTo) || [f.authors, f.categories, f.sources].filter((v) => v.length > 0).length > 1;
  const single = (['categories', 'authors', 'sources'] as const).find((k) => f[k].length === 1);
  if (!others && single) {
    // One value alone: its index lists the papers in id order already.
    const [table, column, index] = {
      categories: ['document_categories', 'category', 'document_categories_by_category'],
      authors: ['document_authors', 'author_key', 'document_authors_by_key'],
      sources: ['document_sources', 'source', 'document_sources_by_source'],
    }[single];
    const value = single === 'authors' ? authorKey(f.authors[0]!) : f[single][0]!;
    return { sql: `SELECT DISTINCT document_id FROM ${table} INDEXED BY ${index} WHERE ${column} = ? ORDER BY document_id DESC LIMIT ?`, args: [value] };
  }
  let driver: Where;
  if (f.query) (driver = { sql: 'SELECT rowid AS id FROM documents_fts WHERE documents_fts MATCH ?', args: [ftsExpression(f.query)] }), (f.query = null);
  else if (f.categories.length) (driver = listed('document_categories', 'category', f.categories, f.categories.length > 1)), (f.categories = []);
  else if (f.authors.length) (driver = listed('document_authors', 'author_key', f.authors.map(authorKey), true)), (f.authors = []);
  else if (f.sources.length) (driver = listed('document_sources', 'source', f.sources, true)), (f.sources = []);
  else {
    const where = filterWhere(f);
    return { sql: `SELECT d.id FROM documents d WHERE ${where.sql} ORDER BY d.id DESC LIMIT ?`, args: where.args };
  }
  const dated = Boolean(f.dateFrom || f.dateTo);
  const rest = filterWhere(f, undefined, { id: 'r.id', probe: true });
  return {
    sql: `SELECT r.id FROM (${driver.sql}) r${dated ? ' CROSS JOIN documents d ON d.id = r.id' : ''} WHERE ${rest.sql} ORDER BY r.id DESC LIMIT ?`,
    args: [...driver.args, ...rest.args],
  };
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

/** Below this many matches a filter's papers are read and sorted; from it on, the date index is walked. */
export const WALK_MIN_MATCHES = 2_000;
/** From this share of the corpus matching the query on, the walk tests the query per row instead of listing its matches (tests lower or raise it). */
export const planner = { probeMinShare: 0.1 };

export type NewestPlan = 'set' | 'walk' | 'probe';

/**
 * How the newest-first page is read. "set": list the matching papers and sort
 * them (cheap while they are few). "walk": walk the date index newest first and
 * keep the rows that match (the query's matches listed once, authors,
 * categories and sources tested per row by a seek); about corpus / matches ×
 * limit index entries are stepped over, so it pays once the filters match
 * many papers. "probe": the walk, testing the query per row as well, for a
 * query most papers match (listing a million matches costs more than testing
 * a few hundred rows). The query's share of the corpus is read from where its
 * WALK_MIN_MATCHES-th newest match lies (one doclist read, stopped there); the
 * other filters' from the facet counters; shares combine as if independent.
 */
export function newestPlan(db: Database, filters: Filters): NewestPlan {
  const corpus = prepared(db, `SELECT coalesce(sum(count), 0) FROM explorer_facet_counts WHERE facet = 'years'`).pluck().get() as number;
  if (corpus === 0) return 'set';
  const counted = prepared(db, 'SELECT coalesce(sum(count), 0) FROM explorer_facet_counts WHERE facet = ? AND value IN (SELECT value FROM json_each(?))').pluck();
  const shares: number[] = [];
  if (filters.authors.length) shares.push((counted.get('authors', JSON.stringify(filters.authors.map(authorKey))) as number) / corpus);
  if (filters.categories.length) shares.push((counted.get('categories', JSON.stringify(filters.categories)) as number) / corpus);
  if (filters.sources.length) shares.push((counted.get('sources', JSON.stringify(filters.sources)) as number) / corpus);
  let queryShare: number | null = null;
  if (filters.query) {
    const nth = prepared(db, 'SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').pluck().get(ftsExpression(filters.query), WALK_MIN_MATCHES - 1) as
      | number
      | undefined;
    if (nth === undefined) return 'set'; // fewer matches than the threshold
    const newest = prepared(db, 'SELECT max(id) FROM documents').pluck().get() as number;
    queryShare = Math.min(1, WALK_MIN_MATCHES / Math.max(1, newest - nth + 1));
    shares.push(queryShare);
  }
  if (shares.length === 0) return 'set';
  if (corpus * shares.reduce((a, b) => a * b, 1) < WALK_MIN_MATCHES) return 'set';
  return queryShare !== null && queryShare >= planner.probeMinShare ? 'probe' : 'walk';
}

/** The highest document id: the ceiling a relevance ranking's later pages keep. */
export function newestDocumentId(db: Database): number {
  return (prepared(db, 'SELECT max(id) FROM documents').pluck().get() as number | null) ?? 0;
}

/**
 * The id a bounded ranking stays above: the (bound+1)-th paper matching the
 * filters counting down from the most recently added, or null when no more
 * than `bound` match. Walking ids in the full-text index scores nothing.
 */
export function rankFloor(db: Database, filters: Filters, dated: boolean, where: Where, bound: number): number | null {
  // The order on the outer query: a subquery's ORDER BY is dropped once the join with documents
  // (a date window) flattens it, and the full-text index is then read oldest first.
  const sql = `SELECT r.id FROM (SELECT rowid AS id FROM documents_fts WHERE documents_fts MATCH ?) r
    ${dated ? 'JOIN documents d ON d.id = r.id ' : ''}WHERE ${where.sql} ORDER BY r.id DESC LIMIT 1 OFFSET ?`;
  return (prepared(db, sql).pluck().get(ftsExpression(filters.query!), ...where.args, bound) as number | undefined) ?? null;
}

/**
 * Ids by bm25 rank (best first, then id) among the papers matching the query
 * and `where` with ids in (floor, ceiling]. bm25() and not the rank column
 * (the same score): measured on 1M papers, 10,000 of a word's 124,000 matches
 * ranked in 15 ms through bm25() and in 90 ms through rank, as if unbounded.
 */
export function rankedIds(db: Database, filters: Filters, dated: boolean, where: Where, at: { ceiling: number; floor: number | null; offset: number; limit: number }): number[] {
  const bounded = at.floor === null ? '' : ' AND rowid > ?';
  const sql = `SELECT r.id FROM (SELECT rowid AS id, bm25(documents_fts) AS score FROM documents_fts WHERE documents_fts MATCH ? AND rowid <= ?${bounded}) r
    ${dated ? 'JOIN documents d ON d.id = r.id ' : ''}WHERE ${where.sql} ORDER BY r.score, r.id LIMIT ? OFFSET ?`;
  return prepared(db, sql).pluck().all(ftsExpression(filters.query!), at.ceiling, ...(at.floor === null ? [] : [at.floor]), ...where.args, at.limit, at.offset) as number[];
}
