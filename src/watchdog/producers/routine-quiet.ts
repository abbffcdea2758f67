/** A routine gone quiet against its own history (the routine-health quiet flag), or returning nothing at all. */
import type { Context } from '../../context.js';
import { judgeQuiet, QUIET } from '../../analytics/routine-health.js';
import { routineRuns } from '../../analytics/repo.js';
import { listRoutines } from '../../routines/repo.js';
import type { Producer, ProducerResult } from '../types.js';

const RUNS_LOOKED_AT = 20;

export const routineQuiet: Producer = {
  check: 'routine_quiet',
  describes: `Each active routine's last ${RUNS_LOOKED_AT} settled runs: unusual when the last ${QUIET.recent_runs} completed runs found no new paper while the runs before averaged at least ${QUIET.min_history_mean_new}; broken when they returned no paper at all although they used to.`,
  run(ctx: Context): ProducerResult {
    const result: ProducerResult = { findings: [], unjudged: [] };
    for (const routine of listRoutines(ctx.db, true)) {
      const completed = routineRuns(ctx.db, routine.id, null, RUNS_LOOKED_AT).filter((r) => r.status === 'completed');
      const j = judgeQuiet(completed);
      const subject = { kind: 'routine' as const, id: routine.id, name: routine.name };
      if (j.quiet === null) {
        result.unjudged.push({ check: 'routine_quiet', subject, reason: j.reason });
        continue;
      }
      const empty = j.recent_results.every((n) => n === 0) && (j.history_mean_results ?? 0) >= 1;
      if (!j.quiet && !empty) continue;
      const recent = completed.slice(0, QUIET.recent_runs).map((r) => ({ execution_id: r.id, started_at_utc: r.started_at_utc, result_count: r.result_count, new_count: r.new_count }));
      result.findings.push({
        key: `${empty ? 'routine_empty' : 'routine_quiet'}:${routine.id}`,
        check: empty ? 'routine_empty' : 'routine_quiet',
        label: empty ? 'broken' : 'unusual',
        subject,
        title: empty
          ? `Routine "${routine.name}" returned no paper at all in its last ${QUIET.recent_runs} runs (it used to return ${j.history_mean_results} per run)`
          : `Routine "${routine.name}" has gone quiet: ${j.reason}`,
        since_utc: recent.at(-1)?.started_at_utc ?? null,
        what_to_do: empty
          ? 'Every source came back empty: read the zero reasons in `svc executions show ID` of the runs listed (a missing key, a failing source or a window no source can answer).'
          : 'Perhaps the field is quiet, perhaps the search went stale: compare the routine\'s keywords and sources with its intent (`svc routine coverage ID`), and look at the sources\' zero reasons in the runs listed.',
        evidence: { recent_runs: recent, history_mean_new: j.history_mean_new, history_mean_results: j.history_mean_results },
        thresholds: { runs_looked_at: RUNS_LOOKED_AT, ...QUIET },
      });
    }
    return result;
  },
};
