/** The fires a routine missed (came due while no scheduler ran) or ran late, in the service's words. */
import type { MissedFireOutcome, RoutineDetail } from '../api/routines.js';
import { count, minute } from '../ui/format.js';

const OUTCOME: Record<MissedFireOutcome, string> = {
  missed: 'missed',
  pending: 'still due',
  coalesced: 'ran once, late',
  overflow: 'dropped: the fire queue was full',
  dropped: 'dropped',
  skipped: 'skipped',
};

export function MissedFires({ routine }: { routine: RoutineDetail }) {
  const details = routine.missed_fire_details;
  return (
    <section class="run-section" aria-labelledby="missed-title">
      <h2 id="missed-title">Missed fires</h2>
      {details.length === 0 ? (
        <p class="muted">None: every fire that came due ran. Fires come due only while the daemon runs; those that come due while svc is closed are listed here.</p>
      ) : (
        <>
          <p>
            {count(routine.missed_fires.count, 'fire')} missed{routine.missed_fires.last_due_at_utc && `, the last due ${minute(routine.missed_fires.last_due_at_utc)}`}.
          </p>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Missed and late fires</caption>
              <thead>
                <tr>
                  <th scope="col">Due</th>
                  <th scope="col" class="num">
                    Fires
                  </th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {details.map((d) => (
                  <tr key={`${d.first_due_at_utc}-${d.outcome}`}>
                    <td>
                      {minute(d.first_due_at_utc)}
                      {d.count > 1 && ` – ${minute(d.last_due_at_utc)}`}
                    </td>
                    <td class="num">{d.count}</td>
                    <td>
                      <span class={d.ran ? 'chip chip-ok' : 'chip chip-warn'}>{OUTCOME[d.outcome] ?? d.outcome.replace(/_/g, ' ')}</span>
                      {d.execution_id !== null && (
                        <>
                          {' '}
                          <a href={`/runs/${d.execution_id}`}>Run {d.execution_id}</a>
                        </>
                      )}
                    </td>
                    <td>{d.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
