/** Missed fires: scheduled fires of an active routine that came due while no scheduler ran. */
import type { Context } from '../../context.js';
import { firstMissedDue, missedFireCount } from '../../routines/missed.js';
import { listRoutines } from '../../routines/repo.js';
import { getJob } from '../../routines/jobs.js';
import type { Producer, ProducerResult } from '../types.js';
import { count } from '../../util/words.js';

export const missedFiresProducer: Producer = {
  check: 'missed_fires',
  describes: 'Each active routine: unusual when scheduled fires came due while no scheduler was running and were not run. The key names the latest missed fire, so a newer one alarms again after a mute.',
  run(ctx: Context): ProducerResult {
    const result: ProducerResult = { findings: [], unjudged: [] };
    for (const routine of listRoutines(ctx.db, true)) {
      const job = getJob(ctx.db, routine.id);
      const missed_fires = missedFireCount(ctx, routine.id, job);
      if (missed_fires.count === 0) continue;
      result.findings.push({
        key: `missed_fires:${routine.id}:${missed_fires.last_due_at_utc}`,
        check: 'missed_fires',
        label: 'unusual',
        subject: { kind: 'routine', id: routine.id, name: routine.name },
        title: `Routine "${routine.name}" missed ${count(missed_fires.count, 'scheduled fire')}, the latest due ${missed_fires.last_due_at_utc}`,
        since_utc: firstMissedDue(ctx, routine.id, job),
        what_to_do:
          `Fires come due only while a scheduler runs: install the background daemon (\`svc service install\`) so routines fire while the window is closed, or run the routine now with \`svc routine run ${routine.id}\`. \`svc routine show ${routine.id}\` lists the missed fires.`,
        evidence: { missed_count: missed_fires.count, last_due_at_utc: missed_fires.last_due_at_utc },
        thresholds: { missed_fires_at_least: 1 },
      });
    }
    return result;
  },
};
