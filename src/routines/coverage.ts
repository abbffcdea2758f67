/**
 * The coverage audit of a routine: how its results compare with its intent
 * sentence, judged on the local corpus without a model, so anyone can check it.
 *
 * The intent's content words (coverage-terms.ts) are looked up in the titles
 * and abstracts of the corpus index; a paper fits the intent when it contains
 * enough of them (all of one or two, else half). Off target: papers the
 * routine's runs found that do not fit. Missed in corpus: papers in the corpus
 * that fit, published inside the window the routine's runs covered, that no run
 * of the routine found. Totals are exact counts of those sets; the examples are
 * pages of them. The missed side is a lower bound: the corpus holds only what
 * some search found. With no intent the audit says it cannot judge: an intent
 * is never guessed from keywords.
 */
import type { Context } from '../context.js';
import { flushSearchIndex } from '../corpus/search-index.js';
import type { RunSpec } from '../executions/request.js';
import { ftsQuery, intentTerms, termsNeeded, words } from './coverage-terms.js';
import type { RoutineRow } from './repo.js';

export const COVERAGE_DEFAULT_LIMIT = 10;
export const COVERAGE_MAX_LIMIT = 100;

export interface CoveragePage {
  limit: number;
  offset: number;
}

const METHOD =
  'Lexical, on the local corpus: the intent sentence is reduced to its content words (stop words dropped, a light suffix stripped, matched as word prefixes in title and abstract through the full-text index). ' +
  'A paper fits the intent when it contains all of one or two such words, or at least half of three or more. ' +
  "Off target counts the routine's results that do not fit; missed in corpus counts papers in the corpus that fit, fall inside the publication window the routine's runs asked for, and were never found by the routine. " +
  'Totals are exact counts; examples are one page, newest first. No model is involved, so a paper that says the same thing in other words is not recognised.';

const PUB_START = `CASE length(d.publication_date) WHEN 4 THEN d.publication_date || '-01-01' WHEN 7 THEN d.publication_date || '-01' ELSE d.publication_date END`;
const PUB_END = `CASE length(d.publication_date) WHEN 4 THEN d.publication_date || '-12-31' WHEN 7 THEN d.publication_date || '-31' ELSE d.publication_date END`;

/** The publication window the routine's runs covered: the widest of their windows (null ends are open). */
function coveredWindow(ctx: Context, routineId: number): { date_from: string | null; date_to: string | null } | null {
  const specs = (ctx.db.prepare('SELECT parameters_json FROM executions WHERE routine_id = ?').pluck().all(routineId) as string[]).map((j) => JSON.parse(j) as RunSpec);
  if (specs.length === 0) return null;
  const froms = specs.map((s) => s.dateFrom);
  const tos = specs.map((s) => s.dateTo);
  return {
    date_from: froms.includes(null) ? null : (froms as string[]).sort()[0]!,
    date_to: tos.includes(null) ? null : (tos as string[]).sort().pop()!,
  };
}

interface ExampleRow {
  id: number;
  title: string;
  abstract: string | null;
  publication_date: string | null;
  doi: string | null;
  sources: string | null;
}

function example(row: ExampleRow, terms: string[]) {
  const text = words(`${row.title} ${row.abstract ?? ''}`);
  return {
    id: row.id,
    title: row.title,
    publication_date: row.publication_date,
    doi: row.doi,
    found_by: row.sources ? row.sources.split(',').sort() : [],
    matched_terms: terms.filter((t) => text.some((w) => w.startsWith(t))),
    has_abstract: row.abstract !== null && row.abstract !== '',
  };
}

export function routineCoverage(ctx: Context, row: RoutineRow, page: CoveragePage) {
  const base = { routine_id: row.id, intent: row.intent, method: METHOD };
  if (!row.intent) {
    return {
      ...base,
      judged: false as const,
      reason: 'no_intent',
      message: `Routine ${row.id} has no intent sentence, so svc cannot judge what is off target or missed. Give it one (PUT /api/routines/${row.id} {"intent": "…"} or svc routine edit ${row.id} --intent "…"); an intent is never guessed from keywords.`,
      off_target: null,
      missed_in_corpus: null,
    };
  }
  const terms = intentTerms(row.intent);
  if (terms.length === 0) {
    return { ...base, judged: false as const, reason: 'intent_without_terms', message: 'The intent has no content words left after stop words are dropped; say what the papers are about.', off_target: null, missed_in_corpus: null };
  }
  flushSearchIndex(ctx.db); // indexing is deferred: papers merged since the last flush must count
  const needed = termsNeeded(terms.length);
  const window = coveredWindow(ctx, row.id);
  const hits = terms.map(() => 'SELECT rowid AS id FROM documents_fts WHERE documents_fts MATCH ?').join(' UNION ALL ');
  const cte = `WITH hits AS (${hits}),
    matching AS (SELECT id FROM hits GROUP BY id HAVING count(*) >= ?),
    results AS (SELECT DISTINCT ed.document_id AS id FROM execution_documents ed JOIN executions e ON e.id = ed.execution_id WHERE e.routine_id = ?)`;
  const args = [...terms.map(ftsQuery), needed, row.id];
  const windowSql = [window?.date_from ? `${PUB_END} >= ?` : null, window?.date_to ? `${PUB_START} <= ?` : null].filter(Boolean) as string[];
  const windowArgs = [window?.date_from, window?.date_to].filter((x): x is string => Boolean(x));
  const missedWhere = `d.id IN (SELECT id FROM matching) AND d.id NOT IN (SELECT id FROM results)`;
  const datedWhere = windowSql.length ? ` AND d.publication_date IS NOT NULL AND ${windowSql.join(' AND ')}` : '';
  const offWhere = `d.id IN (SELECT id FROM results) AND d.id NOT IN (SELECT id FROM matching)`;
  const select = `SELECT d.id, d.title, d.abstract, d.publication_date, d.doi, (SELECT group_concat(DISTINCT source) FROM document_sources s WHERE s.document_id = d.id) AS sources FROM documents d`;
  const count = (where: string, extra: unknown[] = []) => ctx.db.prepare(`${cte} SELECT count(*) FROM documents d WHERE ${where}`).pluck().get(...args, ...extra) as number;
  const list = (where: string, extra: unknown[] = []) =>
    ctx.db.prepare(`${cte} ${select} WHERE ${where} ORDER BY d.sort_date DESC, d.id DESC LIMIT ? OFFSET ?`).all(...args, ...extra, page.limit, page.offset) as ExampleRow[];

  const resultsTotal = count('d.id IN (SELECT id FROM results)');
  const offTotal = count(offWhere);
  const missedTotal = count(missedWhere + datedWhere, windowArgs);
  const undated = windowSql.length ? count(`${missedWhere} AND d.publication_date IS NULL`) : 0;
  const withoutAbstract = count(`d.id IN (SELECT id FROM results) AND (d.abstract IS NULL OR d.abstract = '')`);
  const next = (total: number) => (page.offset + page.limit < total ? page.offset + page.limit : null);
  return {
    ...base,
    judged: true as const,
    terms,
    terms_needed: needed,
    window,
    results_total: resultsTotal,
    on_target_total: resultsTotal - offTotal,
    off_target: { total: offTotal, limit: page.limit, offset: page.offset, next_offset: next(offTotal), examples: list(offWhere).map((r) => example(r, terms)) },
    missed_in_corpus: {
      total: missedTotal,
      lower_bound: true,
      lower_bound_reason: 'The corpus holds only papers some search of svc found; papers that fit the intent and no search ever retrieved cannot be counted.',
      undated_excluded: undated,
      limit: page.limit,
      offset: page.offset,
      next_offset: next(missedTotal),
      examples: list(missedWhere + datedWhere, windowArgs).map((r) => example(r, terms)),
    },
    results_without_abstract: withoutAbstract,
    caveats: [
      ...(resultsTotal === 0 ? ['The routine has found nothing yet, so nothing can be off target; the missed side still shows what the corpus holds.'] : []),
      ...(withoutAbstract > 0 ? [`${withoutAbstract} of the results have no abstract and were judged on their title alone.`] : []),
      'Most sources rank by relevance, so a result matching few intent words is not necessarily wrong; read the examples.',
    ],
  };
}
