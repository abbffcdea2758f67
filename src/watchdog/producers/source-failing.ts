/** A source failing across runs: upstream_failure or parse_failure streaks, or a high failure rate. */
import type { Context } from '../../context.js';
import { findSource } from '../../sources/index.js';
import { looksOffline, type NetworkKind } from '../../sources/net-cause.js';
import { recentSourceOutcomes, runSourceRows, type SourceOutcomeRow } from '../repo.js';
import type { Finding, Producer, ProducerResult } from '../types.js';
import { count } from '../../util/words.js';

export const SOURCE_THRESHOLDS = {
  /** Consecutive latest runs failing with upstream_failure or parse_failure: broken. */
  failure_streak: 3,
  /** Runs looked at per source. */
  recent_runs: 10,
  /** Share of failing runs among those (with at least min_runs): unusual. */
  unusual_failure_rate: 0.5,
  min_runs: 3,
};

const FAILING = new Set(['upstream_failure', 'parse_failure']);

const ADVICE: Record<string, string> = {
  upstream_failure:
    'The service answered with errors or not at all. Look at the HTTP status and message in `svc executions record ID` of the runs listed; wait if it is an outage, or take the source out of the routines that use it until it recovers.',
  parse_failure:
    'svc could not read the answers: the API has probably changed its format. Update svc; until then take the source out of the routines that use it. `svc executions record ID` shows the requests.',
};

/** What the stored outcome says about the wire: the HTTP status, or the kind of network failure when none came. */
function wireOf(row: Pick<SourceOutcomeRow, 'outcome_json'>): { http_status: number | null; network: NetworkKind | null } {
  try {
    const evidence = (JSON.parse(row.outcome_json ?? '{}') as { evidence?: { http_status?: number | null; network?: NetworkKind } }).evidence;
    return { http_status: evidence?.http_status ?? null, network: evidence?.network ?? null };
  } catch {
    return { http_status: null, network: null };
  }
}

function evidenceOf(rows: SourceOutcomeRow[]) {
  return rows.map((r) => ({ execution_id: r.execution_id, started_at_utc: r.started_at_utc, zero_reason: r.zero_reason, http_status: wireOf(r).http_status, message: r.message }));
}

/**
 * The runs that failed because this machine was offline, by the rule the run itself said so with
 * ("This machine looks offline"): no source answered, and each failed for want of DNS or a route.
 * They say nothing about any one source, so they are not held against it.
 */
function offlineRuns(ctx: Context, executionIds: number[]): Set<number> {
  const byRun = new Map<number, boolean>();
  for (const row of runSourceRows(ctx.db, executionIds)) {
    const offline = row.status === 'not_answered' && looksOffline(wireOf(row).network ?? undefined);
    byRun.set(row.execution_id, (byRun.get(row.execution_id) ?? true) && offline);
  }
  return new Set([...byRun].filter(([, offline]) => offline).map(([id]) => id));
}

function judge(source: string, rows: SourceOutcomeRow[]): Finding | undefined {
  const name = findSource(source)?.name ?? source;
  const failing = (r: SourceOutcomeRow) => r.zero_reason !== null && FAILING.has(r.zero_reason);
  let streak = 0;
  while (streak < rows.length && failing(rows[streak]!)) streak++;
  const failures = rows.filter(failing).length;
  const reasons = [...new Set(rows.slice(0, Math.max(streak, 1)).filter(failing).map((r) => r.zero_reason!))];
  const thresholds = { ...SOURCE_THRESHOLDS };
  if (streak >= SOURCE_THRESHOLDS.failure_streak) {
    return {
      key: `source_failing:${source}`,
      check: 'source_failing',
      label: 'broken',
      subject: { kind: 'source', id: source, name },
      title: `${name} failed in its last ${streak} runs (${reasons.join(', ')})`,
      since_utc: rows[streak - 1]!.started_at_utc,
      what_to_do: reasons.map((r) => ADVICE[r]).join(' '),
      evidence: { streak, failures_in_recent_runs: failures, recent_runs: rows.length, reasons, runs: evidenceOf(rows.slice(0, streak)) },
      thresholds,
    };
  }
  if (rows.length >= SOURCE_THRESHOLDS.min_runs && failures / rows.length >= SOURCE_THRESHOLDS.unusual_failure_rate) {
    const seen = [...new Set(rows.filter(failing).map((r) => r.zero_reason!))];
    return {
      key: `source_unreliable:${source}`,
      check: 'source_unreliable',
      label: 'unusual',
      subject: { kind: 'source', id: source, name },
      title: `${name} failed in ${failures} of its last ${rows.length} runs (${seen.join(', ')})`,
      since_utc: rows.filter(failing).at(-1)!.started_at_utc,
      what_to_do: `It still answers sometimes. ${seen.map((r) => ADVICE[r]).join(' ')}`,
      evidence: { streak, failures_in_recent_runs: failures, recent_runs: rows.length, reasons: seen, runs: evidenceOf(rows.filter(failing)) },
      thresholds,
    };
  }
  return undefined;
}

export const sourceFailing: Producer = {
  check: 'source_failing',
  describes: `Each source's last ${SOURCE_THRESHOLDS.recent_runs} settled runs: broken after ${SOURCE_THRESHOLDS.failure_streak} upstream_failure or parse_failure answers in a row, unusual when at least half of them failed. A run that failed because this machine was offline (no source reached: no DNS or no route) is not counted against any source.`,
  run(ctx: Context): ProducerResult {
    const recent = recentSourceOutcomes(ctx.db, SOURCE_THRESHOLDS.recent_runs);
    const offline = offlineRuns(ctx, [...new Set(recent.map((r) => r.execution_id))]);
    const bySource = new Map<string, SourceOutcomeRow[]>();
    const offlineBySource = new Map<string, number>();
    for (const row of recent) {
      if (offline.has(row.execution_id)) {
        offlineBySource.set(row.source, (offlineBySource.get(row.source) ?? 0) + 1);
        continue;
      }
      const list = bySource.get(row.source) ?? [];
      list.push(row);
      bySource.set(row.source, list);
    }
    const result: ProducerResult = { findings: [], unjudged: [] };
    for (const source of new Set(recent.map((r) => r.source))) {
      const rows = bySource.get(source) ?? [];
      const subject = { kind: 'source' as const, id: source, name: findSource(source)?.name ?? source };
      const finding = judge(source, rows);
      if (finding) result.findings.push(finding);
      else if (rows.length > 0 && rows.length < SOURCE_THRESHOLDS.min_runs) {
        result.unjudged.push({ check: 'source_failing', subject, reason: `only ${count(rows.length, 'settled run')}; a failure rate needs ${SOURCE_THRESHOLDS.min_runs}` });
      }
      const away = offlineBySource.get(source);
      if (away) result.unjudged.push({ check: 'source_failing', subject, reason: `${count(away, 'run')} failed because this machine was offline (no source could be reached); not counted against ${subject.name}` });
    }
    return result;
  },
};
