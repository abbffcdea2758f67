/** What each source and each keyword brought: delivered, and found by nothing else. */
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { getRoutine } from '../routines/repo.js';
import { NOT_ANSWERED } from '../sources/types.js';
import * as repo from './repo.js';
import type { AnalyticsWindow } from './window.js';
import type { KeywordContribution, SourceContribution } from '../wire/analytics.js';

export function sourceContribution(ctx: Context, window: AnalyticsWindow): SourceContribution {
  const from = window.from_utc;
  const delivered = repo.deliveredBySource(ctx.db, from);
  const inCorpus = new Map(repo.inCorpusBySource(ctx.db).map((r) => [r.source, r.n]));
  const asked = new Map<string, { runs: number; answered: number; zero_reasons: Record<string, number>; not_answered: number }>();
  for (const r of repo.askedBySource(ctx.db, from)) {
    const a = asked.get(r.source) ?? { runs: 0, answered: 0, zero_reasons: {}, not_answered: 0 };
    a.runs += r.n;
    if (r.status === 'answered') a.answered += r.n;
    if (r.zero_reason && r.zero_reason !== 'not_recorded') a.zero_reasons[r.zero_reason] = (a.zero_reasons[r.zero_reason] ?? 0) + r.n;
    if (r.zero_reason && (NOT_ANSWERED as readonly string[]).includes(r.zero_reason)) a.not_answered += r.n;
    asked.set(r.source, a);
  }
  const names = new Set([...delivered.map((d) => d.source), ...asked.keys()]);
  const bySource = new Map(delivered.map((d) => [d.source, d]));
  const sources = [...names]
    .map((source) => {
      const d = bySource.get(source);
      const a = asked.get(source) ?? { runs: 0, answered: 0, zero_reasons: {}, not_answered: 0 };
      return {
        source,
        delivered: d?.delivered ?? 0,
        first_found: d?.first_found ?? 0,
        only_this_source: d?.only_this_source ?? 0,
        in_corpus: inCorpus.get(source) ?? 0,
        runs_asked: a.runs,
        runs_not_answered: a.not_answered,
        zero_reasons: a.zero_reasons,
      };
    })
    .sort((x, y) => y.delivered - x.delivered || x.source.localeCompare(y.source));
  return {
    view: 'source-contribution',
    window,
    sources,
    totals: { delivered: repo.deliveredTotal(ctx.db, from), only_one_source: sources.reduce((n, s) => n + s.only_this_source, 0), sources: sources.length },
    method:
      'delivered: distinct papers the source returned in runs started in the window. first_found: of those, papers a run of this source added to the corpus first. ' +
      'only_this_source: delivered papers that no other source has ever returned or holds a record of (all time, not only the window): what would be missing without it. ' +
      'in_corpus: papers holding a record from this source, all time. runs_asked / runs_not_answered / zero_reasons: how the source was asked in settled runs of the window ' +
      '(not answered = entity_unsupported, missing_key, parse_failure, retired, upstream_failure, window_unanswerable; not_recorded is never shown as a reason).',
  };
}

/** Lower case, diacritics off, anything not a letter or digit a single space. */
export function foldText(text: string): string {
  return ` ${text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Does the keyword (a word or phrase) occur in the folded text, on word boundaries? */
export function keywordMatches(folded: string, keyword: string): boolean {
  const k = foldText(keyword).trim();
  return k !== '' && folded.includes(` ${k} `);
}

function keywordsOf(parametersJson: string): string[] {
  try {
    const spec = JSON.parse(parametersJson) as { keywords?: unknown };
    if (!Array.isArray(spec.keywords)) return [];
    return [...new Set(spec.keywords.filter((k): k is string => typeof k === 'string' && k.trim() !== '').map((k) => k.trim().toLowerCase()))];
  } catch {
    return [];
  }
}

export function keywordContribution(ctx: Context, window: AnalyticsWindow, routineId: number | null = null): KeywordContribution {
  // A mistyped routine id would otherwise read as "no run carried keywords".
  if (routineId !== null && !getRoutine(ctx.db, routineId)) throw notFound('routine_not_found', `No routine ${routineId}; GET /api/routines (or \`svc routine list\`) lists them.`, { routine_id: routineId });
  const runs = repo.settledRuns(ctx.db, window.from_utc, routineId);
  const stats = new Map<string, { runs: number; found: Set<number> }>();
  const docKeywords = new Map<number, Set<string>>();
  const folded = new Map<number, string>();
  let runsWithKeywords = 0;
  for (const run of runs) {
    const keywords = keywordsOf(run.parameters_json);
    if (keywords.length === 0) continue;
    runsWithKeywords++;
    for (const k of keywords) {
      const s = stats.get(k) ?? { runs: 0, found: new Set<number>() };
      s.runs++;
      stats.set(k, s);
    }
    for (const doc of repo.runDocuments(ctx.db, run.id)) {
      if (!folded.has(doc.id)) folded.set(doc.id, foldText(`${doc.title} ${doc.abstract ?? ''}`));
      const set = docKeywords.get(doc.id) ?? new Set<string>();
      for (const k of keywords) {
        set.add(k);
        stats.get(k)!.found.add(doc.id);
      }
      docKeywords.set(doc.id, set);
    }
  }
  const matching = new Map<string, number>();
  const only = new Map<string, number>();
  let matchingNone = 0;
  for (const [docId, keywords] of docKeywords) {
    const text = folded.get(docId)!;
    const matched = [...keywords].filter((k) => keywordMatches(text, k));
    for (const k of matched) matching.set(k, (matching.get(k) ?? 0) + 1);
    if (matched.length === 1) only.set(matched[0]!, (only.get(matched[0]!) ?? 0) + 1);
    if (matched.length === 0) matchingNone++;
  }
  const keywords = [...stats.entries()]
    .map(([keyword, s]) => ({ keyword, runs: s.runs, papers_found: s.found.size, papers_matching: matching.get(keyword) ?? 0, only_this_keyword: only.get(keyword) ?? 0 }))
    .sort((a, b) => b.only_this_keyword - a.only_this_keyword || b.papers_matching - a.papers_matching || a.keyword.localeCompare(b.keyword));
  return {
    view: 'keyword-contribution',
    window,
    routine_id: routineId,
    keywords,
    totals: { runs_considered: runs.length, runs_with_keywords: runsWithKeywords, papers: docKeywords.size, papers_matching_no_keyword: matchingNone },
    method:
      'Runs started in the window (of one routine when routine_id is given) that carried keywords. For each paper they returned, the keywords of the runs that found it are looked for in its title and abstract ' +
      '(case and accents ignored, whole words or phrases). papers_found: papers returned by runs using the keyword. papers_matching: of those, papers containing it. ' +
      'only_this_keyword: papers in which this keyword is the only one of their runs\' keywords that occurs — the papers only that keyword found. ' +
      'papers_matching_no_keyword: most sources rank by relevance over more than title and abstract, so a paper matching no keyword is expected, not an error.',
  };
}
