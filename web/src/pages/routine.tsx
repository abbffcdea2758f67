/**
 * One routine: what it searches and when, the next five fires (from the
 * calendar, the scheduler's own computation), Run now (its progress comes in
 * live on the run's page), activate and deactivate, the fires it missed, the
 * coverage audit, and the saved configurations it can start from.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { routines, type RoutineDetail } from '../api/routines.js';
import type { PageProps } from '../routes.js';
import { navigate } from '../router.js';
import { session } from '../session.js';
import { count, minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { StatusChip } from '../runs/status.js';
import { CoverageAudit } from '../routines/coverage.js';
import { MissedFires } from '../routines/missed.js';
import { RoutineConfigurations } from '../routines/configurations.js';
import { FireList } from '../routines/fire-times.js';

const NEXT_FIRES = 5;

function Actions({ routine: r, reload }: { routine: RoutineDetail; reload: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);
  const act = async (what: string, fn: () => Promise<unknown>) => {
    setBusy(what);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const runNow = () => act('run', async () => navigate(`/runs/${(await routines.runNow(r.id)).execution_id}`));
  const running = error instanceof ApiError && error.status === 409 && typeof error.detail.execution_id === 'number' ? (error.detail.execution_id as number) : null;
  return (
    <div class="run-actions">
      <button type="button" onClick={runNow} disabled={busy !== null}>
        {busy === 'run' ? 'Starting…' : 'Run now'}
      </button>
      <a class="button quiet" href={`/routines/${r.id}/edit`}>
        Edit
      </a>
      <a class="button quiet" href={`/routines/${r.id}/delivery`}>
        Delivery
      </a>
      <button type="button" class="quiet" disabled={busy !== null} onClick={() => act('toggle', () => (r.is_active ? routines.deactivate(r.id) : routines.activate(r.id)).then(reload))}>
        {r.is_active ? 'Take off the schedule' : 'Put on the schedule'}
      </button>
      {deleting ? (
        <>
          <button type="button" class="danger" onClick={() => act('delete', () => routines.remove(r.id).then(() => navigate('/routines')))}>
            Delete “{r.name}”
          </button>
          <button type="button" class="quiet" onClick={() => setDeleting(false)}>
            Keep it
          </button>
          <span class="muted">Its runs and the papers they found stay; its destinations go with it.</span>
        </>
      ) : (
        <button type="button" class="quiet" onClick={() => setDeleting(true)}>
          Delete…
        </button>
      )}
      <ErrorNote error={error} title={busy === null && error instanceof ApiError && error.status === 409 ? 'It is already running.' : 'svc refused.'} />
      {running !== null && (
        <p>
          <a href={`/runs/${running}`}>Follow run {running}</a>
        </p>
      )}
    </div>
  );
}

function Facts({ routine: r }: { routine: RoutineDetail }) {
  const p = r.parameters;
  return (
    <dl class="facts">
      <dt>Searches</dt>
      <dd>
        {p.query ? `“${p.query}”` : 'everything by the person it follows'}
        {r.entity && ` — follows watch profile ${r.entity.profile_id} (${r.entity.mode === 'retractions' ? 'new papers, retractions and new versions' : 'new papers'})`}
      </dd>
      <dt>Sources</dt>
      <dd>{p.repositories.join(', ')}</dd>
      <dt>Dates</dt>
      <dd>{p.window_days === null ? 'no date limit' : `published in the ${count(p.window_days, 'day')} before each fire${p.since_last_success ? ', or since the last completed run' : ''}`}</dd>
      {p.keywords.length > 0 && (
        <>
          <dt>Keywords</dt>
          <dd>{p.keywords.join(', ')}</dd>
        </>
      )}
      <dt>Results per source</dt>
      <dd>{p.max_results}</dd>
      <dt>Intent</dt>
      <dd>{r.intent ?? <span class="muted">none (the coverage audit needs one)</span>}</dd>
      <dt>AI summary</dt>
      <dd>{r.ai_enabled || p.ai_enabled ? 'written for each run' : 'no'}</dd>
      <dt>After each run</dt>
      <dd>
        {[
          r.delivery_summary.enabled_target_count ? count(r.delivery_summary.enabled_target_count, 'destination') : 'no destination',
          r.email_enabled && 'e-mail',
          r.notify_on_complete && 'a notification',
          r.delivery_summary.awaiting_review ? `${r.delivery_summary.awaiting_review} awaiting review` : null,
        ]
          .filter(Boolean)
          .join(', ')}
      </dd>
      <dt>Last run</dt>
      <dd>
        {r.last_execution ? (
          <>
            <a href={`/runs/${r.last_execution.id}`}>Run {r.last_execution.id}</a> <StatusChip status={r.last_execution.status} /> {minute(r.last_execution.started_at_utc)},{' '}
            {count(r.last_execution.result_count, 'paper')} ({r.last_execution.new_count} new)
          </>
        ) : (
          'never run'
        )}
      </dd>
    </dl>
  );
}

function Schedule({ routine: r }: { routine: RoutineDetail }) {
  const fires = useResource((signal) => (r.is_active ? routines.nextFires(r.id, NEXT_FIRES, signal) : Promise.resolve([])), [r.id, r.is_active, r.schedule_cron]);
  const fallback = session.value?.role === 'fallback';
  return (
    <section class="run-section" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <p class="schedule-sentence">
        Runs <strong>{r.schedule.sentence}</strong> <code>{r.schedule_cron}</code>
      </p>
      {!r.is_active && <p class="note note-warn">Off the schedule: it runs only when you ask (Run now). Put it back on the schedule to have it fire.</p>}
      {r.is_active && fallback && <p class="note note-warn">svc's daemon is not running, so nothing fires now: start it from the banner above.</p>}
      <ErrorNote error={fires.error} title="svc could not read the calendar." />
      {fires.data && fires.data.length > 0 && <FireList fires={fires.data} zone={r.schedule.timezone} label="The next five fires" />}
      {r.queued_fire_at_utc && <p>A fire is waiting for a free slot since {minute(r.queued_fire_at_utc)}.</p>}
    </section>
  );
}

/** The routine's search as a configuration stores it: not the link to the configuration it came from (one cannot point at another). */
function searchOf(r: RoutineDetail): Record<string, unknown> {
  const { saved_configuration_id: _link, ...search } = r.parameters;
  return search;
}

export default function RoutinePage({ params }: PageProps) {
  const id = Number(params.id);
  const routine = useResource((signal) => routines.get(id, signal), [id]);
  const r = routine.data;
  return (
    <>
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="/routines">Routines</a>
      </nav>
      <ErrorNote error={routine.error} title="svc could not read this routine." />
      {!r && routine.loading && <Busy />}
      {r && (
        <>
          <header class="page-header">
            <h1>
              {r.name} <span class={r.is_active ? 'chip chip-ok' : 'chip'}>{r.is_active ? 'on the schedule' : 'inactive'}</span>
              {r.running_execution_id !== null && (
                <>
                  {' '}
                  <a class="chip chip-running" href={`/runs/${r.running_execution_id}`}>
                    running
                  </a>
                </>
              )}
            </h1>
          </header>
          <Actions routine={r} reload={routine.reload} />
          <Facts routine={r} />
          <Schedule routine={r} />
          <MissedFires routine={r} />
          <CoverageAudit id={r.id} />
          <RoutineConfigurations routineId={r.id} parameters={() => searchOf(r)} linkedId={r.parameters.saved_configuration_id} />
        </>
      )}
    </>
  );
}
