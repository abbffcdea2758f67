/** Human views of analytics answers: tables, and on a terminal simple bar charts. */
import { table } from '../lib/io.js';
import { count } from '../lib/words.js';

const BAR_WIDTH = 40;

export function bar(n: number, max: number): string {
  if (max <= 0 || n <= 0) return '';
  return '█'.repeat(Math.max(1, Math.round((n / max) * BAR_WIDTH)));
}

const windowLine = (w: { days: number | null; from_utc: string | null }) => (w.days === null ? 'Window: everything collected' : `Window: the last ${w.days} days (since ${w.from_utc!.slice(0, 10)})`);

/**
 * Empty months in a row from this many on are one line (first..last) in the human view: one
 * paper from 2001 in a 2024 corpus otherwise buries the months that matter under ~280 zero rows.
 * The answer (--json, HTTP) still lists every month.
 */
export const EMPTY_RUN_FOLDED = 3;

type VolumeMonth = { month: string; total: number; by: Record<string, number> };

/** The months as rows: a month with papers alone, a long run of empty months as one span. */
function volumeRows(months: VolumeMonth[]): { label: string; month: VolumeMonth; empty: number }[] {
  const out: { label: string; month: VolumeMonth; empty: number }[] = [];
  for (let i = 0; i < months.length; ) {
    let j = i;
    while (j < months.length && months[j]!.total === 0) j++;
    if (j - i >= EMPTY_RUN_FOLDED) out.push({ label: `${months[i]!.month}..${months[j - 1]!.month}`, month: months[i]!, empty: j - i });
    else for (let k = i; k < j; k++) out.push({ label: months[k]!.month, month: months[k]!, empty: 0 });
    if (j < months.length) out.push({ label: months[j]!.month, month: months[j]!, empty: 0 });
    i = j + 1;
  }
  return out;
}

export function volumeText(v: any, tty: boolean): string {
  const months = v.months as VolumeMonth[];
  const keys = (v.series as { key: string }[]).map((s) => s.key);
  const max = Math.max(0, ...months.map((m) => m.total));
  const rows = [['MONTH', 'PAPERS', ...keys.map((k) => k.toUpperCase()), ...(tty ? [''] : [])]];
  const shown = volumeRows(months);
  for (const r of shown) {
    const m = r.month;
    if (r.empty) rows.push([r.label, '0', ...keys.map(() => '0'), ...(tty ? [`(${count(r.empty, 'month')} with no paper)`] : [])]);
    else rows.push([r.label, String(m.total), ...keys.map((k) => String(m.by[k] ?? 0)), ...(tty ? [bar(m.total, max)] : [])]);
  }
  const folded = shown.filter((r) => r.empty).length;
  return [
    windowLine(v.window),
    `Publication volume by ${v.split}`,
    months.length ? table(rows) : 'No paper in the window is dated to the month.',
    `${v.totals.dated_papers} dated papers; ${v.totals.year_only_papers} dated only to the year and ${v.totals.undated_papers} undated are not placed in a month.`,
    ...(folded ? [`${EMPTY_RUN_FOLDED} or more months in a row with no paper are one line (first..last); --json lists every month.`] : []),
  ].join('\n');
}

export function lagText(l: any, tty: boolean): string {
  const max = Math.max(0, ...l.buckets.map((b: any) => b.papers));
  const o = l.overall;
  return [
    windowLine(l.window),
    // No paper to measure: one sentence, as the overview says it, not "median – days over 0 papers" over a table of zeros.
    ...(o.papers
      ? [
          `Discovery lag: median ${o.median_days ?? '–'} days (p25 ${o.p25_days ?? '–'}, p75 ${o.p75_days ?? '–'}) over ${count(o.papers, 'paper')} dated to the day; ${o.seen_before_publication} seen before their publication date.`,
          table([['LAG', 'PAPERS', ...(tty ? [''] : [])], ...l.buckets.map((b: any) => [b.label, String(b.papers), ...(tty ? [bar(b.papers, max)] : [])])]),
        ]
      : ['Discovery lag: no paper first seen in the window is dated to the day.']),
    '',
    // An empty corpus or window: a header with no rows under it reads as a broken table.
    l.sources.length
      ? table([['SOURCE', 'PAPERS', 'MEDIAN DAYS', 'P25', 'P75'], ...l.sources.map((s: any) => [s.source, String(s.papers), String(s.median_days), String(s.p25_days), String(s.p75_days)])])
      : 'No source has a paper dated to the day in the window.',
    `Not counted: ${l.excluded.month_or_year} papers dated only to the month or year, ${l.excluded.undated} undated.`,
  ].join('\n');
}

export function sourcesText(s: any): string {
  return [
    windowLine(s.window),
    s.sources.length
      ? table([
          ['SOURCE', 'DELIVERED', 'FIRST FOUND', 'ONLY THIS SOURCE', 'RUNS', 'NOT ANSWERED', 'ZERO REASONS'],
          ...s.sources.map((x: any) => [x.source, String(x.delivered), String(x.first_found), String(x.only_this_source), String(x.runs_asked), String(x.runs_not_answered), Object.entries(x.zero_reasons).map(([k, n]) => `${k} ${n}`).join(', ')]),
        ])
      : 'No run in the window asked a source: `svc dive` or `svc sweep` starts one.',
    `${s.totals.delivered} distinct papers delivered.`,
  ].join('\n');
}

export function keywordsText(k: any): string {
  return [
    windowLine(k.window),
    k.keywords.length
      ? table([['KEYWORD', 'RUNS', 'PAPERS FOUND', 'MATCHING', 'ONLY THIS KEYWORD'], ...k.keywords.map((x: any) => [x.keyword, String(x.runs), String(x.papers_found), String(x.papers_matching), String(x.only_this_keyword)])])
      : 'No run in the window carried keywords.',
    ...(k.keywords.length ? [`${k.totals.papers_matching_no_keyword} of ${k.totals.papers} papers match none of their runs' keywords (expected: most sources rank by relevance).`] : []),
  ].join('\n');
}

export function healthText(h: any): string {
  if (!h.routines.length) return [windowLine(h.window), 'No routine to judge yet: `svc routine add` saves a search that runs on a schedule.'].join('\n');
  return [
    windowLine(h.window),
    table([
      ['ID', 'ROUTINE', 'RUNS', 'NEW/RUN (MEAN)', 'LAST NEW', 'QUIET'],
      ...h.routines.map((r: any) => [String(r.routine_id), r.name, String(r.runs_considered), String(r.new_per_run.mean ?? '–'), String(r.new_per_run.last ?? '–'), r.quiet === null ? 'not judged' : r.quiet ? 'QUIET' : 'no']),
    ]),
    ...h.routines.filter((r: any) => r.quiet).map((r: any) => `Routine ${r.routine_id}: ${r.quiet_reason}`),
  ].join('\n');
}

export function summaryText(s: any): string {
  const c = s.corpus;
  return [
    windowLine(s.window),
    table([
      ['Papers stored', String(c.documents_total)],
      ['Papers first seen in the window', String(c.documents_in_window)],
      ['  with DOI / abstract / open access', `${c.with_doi} / ${c.with_abstract} / ${c.open_access}`],
      ['  preprints / retracted / undated', `${c.preprints} / ${c.retracted} / ${c.undated}`],
      ['Runs (completed, failed, cancelled, interrupted)', `${s.executions.completed}, ${s.executions.failed}, ${s.executions.cancelled}, ${s.executions.interrupted}`],
      ['Routines active / inactive', `${s.routines.active} / ${s.routines.inactive}`],
      ['Lifecycle events', String(s.lifecycle_events)],
    ]),
  ].join('\n');
}

export function overviewText(o: any, tty: boolean): string {
  const max = Math.max(0, ...o.recent_months.map((m: any) => m.total));
  return [
    windowLine(o.window),
    `${count(o.corpus.documents_total, 'paper')} stored, ${o.corpus.documents_in_window} first seen in the window; ${count(o.executions.completed, 'completed run')}; ${count(o.routines.active, 'active routine')}; ${count(o.lifecycle_events, 'lifecycle event')}.`,
    o.discovery_lag.papers ? `Discovery lag: median ${o.discovery_lag.median_days ?? '–'} days over ${count(o.discovery_lag.papers, 'paper')}.` : 'Discovery lag: no paper first seen in the window is dated to the day.',
    o.routines.quiet.length ? `Quiet routines: ${o.routines.quiet.map((r: any) => `${r.routine_id} (${r.name})`).join(', ')}` : 'No routine has gone quiet.',
    '',
    'Top sources',
    o.top_sources.length ? table([['SOURCE', 'DELIVERED', 'ONLY THIS SOURCE'], ...o.top_sources.map((s: any) => [s.source, String(s.delivered), String(s.only_this_source)])]) : 'No source delivered a paper in the window.',
    '',
    'Recent publication months',
    // Folded as the volume view folds them: a lone paper 11 months back otherwise showed ten rows of 0.
    o.recent_months.length
      ? table([['MONTH', 'PAPERS', ...(tty ? [''] : [])], ...volumeRows(o.recent_months.map((m: any) => ({ ...m, by: {} }))).map((r) => [r.label, String(r.empty ? 0 : r.month.total), ...(tty ? [r.empty ? `(${count(r.empty, 'month')} with no paper)` : bar(r.month.total, max)] : [])])])
      : 'No paper in the window is dated to the month.',
  ].join('\n');
}
