/** A source failing across runs: upstream_failure or parse_failure streaks, or a high failure rate. */
import type { Context } from '../../context.js';
import { findSource } from '../../sources/index.js';
import { recentSourceOutcomes, type SourceOutcomeRow } from '../repo.js';
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

function evidenceOf(rows: SourceOutcomeRow[]) {
  return rows.map((r) => {
    let status: number | null = null;
    try {
      status = (JSON.parse(r.outcome_json ?? '{}') as { evidence?: { http_status?: number | null } }).evidence?.http_status ?? null;
    } catch {
      status = null;
    }
    return { execution_id: r.execution_id, started_at_utc: r.started_at_utc, zero_reason: r.zero_reason, http_status: status, message: r.message };
  });
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
      what_to_do: `It still answers sometimes. ${seen.map((r) => ADVICE[r]).join(' ')}`,
      evidence: { streak, failures_in_recent_runs: failures, recent_runs: rows.length, reasons: seen, runs: evidenceOf(rows.filter(failing)) },
      thresholds,
    };
  }
  return undefined;
}

export const sourceFailing: Producer = {
  check: 'source_failing',
  describes: `Each source's last ${SOURCE_THRESHOLDS.recent_runs} settled runs: broken after ${SOURCE_THRESHOLDS.failure_streak} upstream_failure or parse_failure answers in a row, unusual when at least half of them failed.`,
  run(ctx: Context): ProducerResult {
    const bySource = new Map<string, SourceOutcomeRow[]>();
    for (const row of recentSourceOutcomes(ctx.db, SOURCE_THRESHOLDS.recent_runs)) {
      const list = bySource.get(row.source) ?? [];
      list.push(row);
      bySource.set(row.source, list);
    }
    const result: ProducerResult = { findings: [], unjudged: [] };
    for (const [source, rows] of bySource) {
      const finding = judge(source, rows);
      if (finding) result.findings.push(finding);
      else if (rows.length < SOURCE_THRESHOLDS.min_runs) {
        result.unjudged.push({ check: 'source_failing', subject: { kind: 'source', id: source, name: findSource(source)?.name ?? source }, reason: `only ${count(rows.length, 'settled run')}; a failure rate needs ${SOURCE_THRESHOLDS.min_runs}` });
      }
    }
    return result;
  },
};
