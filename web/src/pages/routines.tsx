/**
 * Routines: every saved search svc runs on a schedule, with its schedule in
 * words, its next fire, its last run and its health (routine-health, read
 * beside the list and shown as it arrives), and the fires it missed.
 */
import { routines, type RoutineHealthRow, type RoutineView } from '../api/routines.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { count, minute, relative } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { StatusChip } from '../runs/status.js';
import { HealthChip } from '../routines/health.js';

function Row({ routine: r, health }: { routine: RoutineView; health: RoutineHealthRow | undefined }) {
  const next = r.is_active ? r.schedule.next_runs[0] : null;
  return (
    <tr>
      <td>
        <a href={`/routines/${r.id}`} data-row-link>
          {r.name}
        </a>
        <p class="cell-note">{r.parameters.query ? `“${r.parameters.query}”` : r.entity ? 'follows a person' : ''}</p>
      </td>
      <td>{r.schedule.sentence}</td>
      <td>
        {r.running_execution_id !== null ? (
          <a href={`/runs/${r.running_execution_id}`}>running now</a>
        ) : next ? (
          <time dateTime={next} title={minute(next)}>
            {relative(next)}
          </time>
        ) : (
          <span class="muted">off the schedule</span>
        )}
      </td>
      <td>
        {r.last_execution ? (
          <>
            <a href={`/runs/${r.last_execution.id}`}>
              <time dateTime={r.last_execution.started_at_utc}>{minute(r.last_execution.started_at_utc)}</time>
            </a>{' '}
            <StatusChip status={r.last_execution.status} />
            <p class="cell-note">{count(r.last_execution.new_count, 'new paper')}</p>
          </>
        ) : (
          <span class="muted">never run</span>
        )}
      </td>
      <td>
        <HealthChip health={health} />
      </td>
      <td class="num">{r.missed_fires.count > 0 ? <span class="chip chip-warn">{count(r.missed_fires.count, 'missed fire')}</span> : <span class="muted">none</span>}</td>
    </tr>
  );
}

export default function Routines() {
  const list = useResource((signal) => routines.list(signal), []);
  const health = useResource((signal) => routines.health(signal), []);
  const byRoutine = new Map((health.data?.routines ?? []).map((h) => [h.routine_id, h]));
  const data = list.data;
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Routines</h1>
          <p class="lede">Saved searches svc runs on a schedule — while the daemon runs — and whenever you ask.</p>
        </div>
        <a class="button" href="/routines/new">
          New routine
        </a>
      </header>
      <ErrorNote error={list.error} title="svc could not list the routines." />
      {!data && list.loading && <Busy />}
      {data && data.total === 0 && (
        <EmptyState title="No routine yet.">
          <p>
            <a href="/routines/new">Make one</a>: a query (or a person you follow), the sources to ask and a schedule. Each run's papers join the corpus, and its report goes where you
            say.
          </p>
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <>
          <p class="muted">
            {count(data.total, 'routine')}, {data.routines.filter((r) => r.is_active).length} on the schedule
          </p>
          <ErrorNote error={health.error} title="svc could not judge the routines' health." />
          <div class="table-wrap" onKeyDown={moveThroughRows}>
            <table class="routines-table">
              <caption class="visually-hidden">Routines</caption>
              <thead>
                <tr>
                  <th scope="col">Routine</th>
                  <th scope="col">Schedule</th>
                  <th scope="col">Next fire</th>
                  <th scope="col">Last run</th>
                  <th scope="col">Health</th>
                  <th scope="col" class="num">
                    Missed
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.routines.map((r) => (
                  <Row key={r.id} routine={r} health={byRoutine.get(r.id)} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
