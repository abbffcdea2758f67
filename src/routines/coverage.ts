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
import { coverageRepo, type CoverageRepo, type ExampleRow } from './coverage-repo.js';
import type { RoutineRow } from './repo.js';
import type { Coverage, CoverageExample } from '../wire/routines.js';

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

/** The publication window the routine's runs covered: the widest of their windows (null ends are open). */
function coveredWindow(repo: CoverageRepo, routineId: number): { date_from: string | null; date_to: string | null } | null {
  const specs = repo.runSpecs(routineId).map((j) => JSON.parse(j) as RunSpec);
  if (specs.length === 0) return null;
  const froms = specs.map((s) => s.dateFrom);
  const tos = specs.map((s) => s.dateTo);
  return {
    date_from: froms.includes(null) ? null : (froms as string[]).sort()[0]!,
    date_to: tos.includes(null) ? null : (tos as string[]).sort().pop()!,
  };
}

/** Documents containing at least `needed` of the terms. */
function matchingDocuments(repo: CoverageRepo, terms: string[], needed: number): Set<number> {
  const hits = new Map<number, number>();
  for (const term of terms) for (const id of repo.termHits(ftsQuery(term))) hits.set(id, (hits.get(id) ?? 0) + 1);
  return new Set([...hits].filter(([, n]) => n >= needed).map(([id]) => id));
}

function example(row: ExampleRow, terms: string[]): CoverageExample {
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

export function routineCoverage(ctx: Context, row: RoutineRow, page: CoveragePage): Coverage {
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
  const repo = coverageRepo(ctx.db);
  const needed = termsNeeded(terms.length);
  const window = coveredWindow(repo, row.id);
  const matching = matchingDocuments(repo, terms, needed);
  const results = new Set(repo.resultIds(row.id));
  const offTarget = [...results].filter((id) => !matching.has(id));
  const notFound = [...matching].filter((id) => !results.has(id));
  const windowed = Boolean(window?.date_from || window?.date_to);
  const missed = windowed ? repo.inWindow(notFound, window!.date_from, window!.date_to) : notFound;
  const list = (set: number[]) => repo.examples(set, page.limit, page.offset);

  const resultsTotal = results.size;
  const offTotal = offTarget.length;
  const missedTotal = missed.length;
  const undated = windowed ? repo.undated(notFound) : 0;
  const withoutAbstract = repo.withoutAbstract(results);
  const next = (total: number) => (page.offset + page.limit < total ? page.offset + page.limit : null);
  return {
    ...base,
    judged: true as const,
    terms,
    terms_needed: needed,
    window,
    results_total: resultsTotal,
    on_target_total: resultsTotal - offTotal,
    off_target: { total: offTotal, limit: page.limit, offset: page.offset, next_offset: next(offTotal), examples: list(offTarget).map((r) => example(r, terms)) },
    missed_in_corpus: {
      total: missedTotal,
      lower_bound: true,
      lower_bound_reason: 'The corpus holds only papers some search of svc found; papers that fit the intent and no search ever retrieved cannot be counted.',
      undated_excluded: undated,
      limit: page.limit,
      offset: page.offset,
      next_offset: next(missedTotal),
      examples: list(missed).map((r) => example(r, terms)),
    },
    results_without_abstract: withoutAbstract,
    caveats: [
      ...(resultsTotal === 0 ? ['The routine has found nothing yet, so nothing can be off target; the missed side still shows what the corpus holds.'] : []),
      ...(withoutAbstract > 0 ? [`${withoutAbstract} of the results have no abstract and were judged on their title alone.`] : []),
      'Most sources rank by relevance, so a result matching few intent words is not necessarily wrong; read the examples.',
    ],
  };
}
