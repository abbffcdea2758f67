/**
 * Explorer facets: for authors, categories, sources and publication years, the
 * values present among the papers matching the filters, with true counts. Each
 * facet respects every filter except its own (choosing a category does not
 * hide the other categories; the year facet ignores the date window), so a
 * value's count is what choosing it, alone, would give. Selected values are
 * always listed, with their count, even outside the top values.
 */
import type { Context } from '../context.js';
import type { Filters } from './filters.js';
import { authorKey, ensureIndexed, filterWhere, prepared, type FacetName } from './repo.js';

export interface FacetValue {
  value: string;
  count: number;
  selected: boolean;
  label?: string;
}

export interface Facet {
  /** Distinct values among the matching papers (all of them, not only those listed). */
  distinct_values: number;
  values: FacetValue[];
}

const FACET_SQL: Record<FacetName, { all: string; within: (where: string) => string; one: (where: string) => string }> = {
  categories: {
    all: 'SELECT category AS value, count(*) AS count, NULL AS label FROM document_categories GROUP BY category',
    within: (w) => `SELECT c.category AS value, count(*) AS count, NULL AS label FROM document_categories c WHERE c.document_id IN (SELECT d.id FROM documents d WHERE ${w}) GROUP BY c.category`,
    one: (w) => `SELECT count(*) FROM document_categories c WHERE c.category = ? AND c.document_id IN (SELECT d.id FROM documents d WHERE ${w})`,
  },
  authors: {
    all: 'SELECT author_key AS value, count(DISTINCT document_id) AS count, min(name) AS label FROM document_authors GROUP BY author_key',
    within: (w) =>
      `SELECT a.author_key AS value, count(DISTINCT a.document_id) AS count, min(a.name) AS label FROM document_authors a WHERE a.document_id IN (SELECT d.id FROM documents d WHERE ${w}) GROUP BY a.author_key`,
    one: (w) => `SELECT count(DISTINCT a.document_id) FROM document_authors a WHERE a.author_key = ? AND a.document_id IN (SELECT d.id FROM documents d WHERE ${w})`,
  },
  sources: {
    all: 'SELECT source AS value, count(DISTINCT document_id) AS count, NULL AS label FROM document_sources GROUP BY source',
    within: (w) => `SELECT s.source AS value, count(DISTINCT s.document_id) AS count, NULL AS label FROM document_sources s WHERE s.document_id IN (SELECT d.id FROM documents d WHERE ${w}) GROUP BY s.source`,
    one: (w) => `SELECT count(DISTINCT s.document_id) FROM document_sources s WHERE s.source = ? AND s.document_id IN (SELECT d.id FROM documents d WHERE ${w})`,
  },
};

function facet(ctx: Context, filters: Filters, name: FacetName, limit: number): Facet {
  const where = filterWhere(filters, name);
  const unfiltered = where.sql === '1';
  const grouped = unfiltered ? FACET_SQL[name].all : FACET_SQL[name].within(where.sql);
  const sql = `SELECT value, count, label, count(*) OVER () AS distinct_values FROM (${grouped}) ORDER BY count DESC, value LIMIT ?`;
  const rows = prepared(ctx.db, sql).all(...(unfiltered ? [] : where.args), limit) as { value: string; count: number; label: string | null; distinct_values: number }[];
  const selected = name === 'authors' ? filters.authors.map(authorKey) : filters[name];
  const values: FacetValue[] = rows.map((r) => ({ value: r.value, count: r.count, selected: selected.includes(r.value), ...(r.label !== null ? { label: r.label } : {}) }));
  for (const value of selected) {
    if (values.some((v) => v.value === value)) continue;
    const count = prepared(ctx.db, FACET_SQL[name].one(where.sql)).pluck().get(value, ...where.args) as number;
    values.push({ value, count, selected: true });
  }
  return { distinct_values: rows[0]?.distinct_values ?? 0, values };
}

function yearFacet(ctx: Context, filters: Filters): Facet {
  const where = filterWhere(filters, 'dates');
  const rows = prepared(ctx.db, `SELECT coalesce(CAST(d.year AS TEXT), 'undated') AS value, count(*) AS count FROM documents d WHERE ${where.sql} GROUP BY d.year ORDER BY d.year DESC`).all(
    ...where.args,
  ) as { value: string; count: number }[];
  return { distinct_values: rows.length, values: rows.map((r) => ({ ...r, selected: false })) };
}

/**
 * @example explorerFacets(ctx, parseFacetsBody({ query: 'soil', categories: ['Ecology'] }))
 */
export function explorerFacets(ctx: Context, request: { filters: Filters; limitPerFacet: number }) {
  ensureIndexed(ctx.db);
  const { filters, limitPerFacet } = request;
  const where = filterWhere(filters);
  const total = prepared(ctx.db, `SELECT count(*) FROM documents d WHERE ${where.sql}`).pluck().get(...where.args) as number;
  return {
    total,
    limit_per_facet: limitPerFacet,
    facets: {
      authors: facet(ctx, filters, 'authors', limitPerFacet),
      categories: facet(ctx, filters, 'categories', limitPerFacet),
      sources: facet(ctx, filters, 'sources', limitPerFacet),
      years: yearFacet(ctx, filters),
    },
    method:
      'Counts are exact counts of papers. Each facet applies every filter except its own (years ignore the date window), so a count is what choosing that value alone would give. Author values are lower-cased keys; label is a spelling as stored.',
  };
}
