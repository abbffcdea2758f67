/**
 * Runs: every dive, sweep and routine run, newest first, as GET /api/executions
 * pages them (status and type filters, limit and offset in the address, so a
 * filtered page can be reloaded). ↓/↑ move through the runs, Enter opens one.
 */
import { useEffect } from 'preact/hooks';
import { runs, type RunRow } from '../api/executions.js';
import { href, navigate, place } from '../router.js';
import { count, minute } from '../ui/format.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { InterruptedWhy, StatusChip } from '../runs/status.js';

const PAGE = 50;
const REFRESH_MS = 3000;
const STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'];
const TYPES = ['dive', 'sweep', 'routine'];

function Filters({ status, type }: { status: string; type: string }) {
  const go = (patch: Record<string, string>) => navigate(href('/runs', { status, type, ...patch }), { replace: true });
  return (
    <form class="filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
      <div class="field">
        <label for="runs-status">Status</label>
        <select id="runs-status" value={status} onChange={(e) => go({ status: (e.target as HTMLSelectElement).value })}>
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="runs-type">Kind</label>
        <select id="runs-type" value={type} onChange={(e) => go({ type: (e.target as HTMLSelectElement).value })}>
          <option value="">Any</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

/** A pager link, or its label greyed out where there is no such page. */
function PageLink({ to, label }: { to: string | null; label: string }) {
  return to ? (
    <a class="button quiet" href={to}>
      {label}
    </a>
  ) : (
    <span class="button quiet disabled" aria-disabled="true">
      {label}
    </span>
  );
}

function Row({ run }: { run: RunRow }) {
  return (
    <tr>
      <td>
        <a href={`/runs/${run.id}`} data-row-link>
          Run {run.id}
        </a>
      </td>
      <td>
        <StatusChip status={run.status} />
        {run.status === 'interrupted' && (
          <p class="cell-note">
            <InterruptedWhy reason={run.interrupted_reason} meaning={run.interrupted_reason_meaning} />
          </p>
        )}
      </td>
      <td>
        {run.type}
        {run.restarted_from !== null && <p class="cell-note">restart of run {run.restarted_from}</p>}
      </td>
      <td class="query-cell">{run.query || <span class="muted">(no words)</span>}</td>
      <td class="sources-cell">{run.repositories.join(', ')}</td>
      <td>
        <time dateTime={run.started_at_utc}>{minute(run.started_at_utc)}</time>
      </td>
      <td class="num">
        {run.result_count.toLocaleString()}
        {run.new_count > 0 && <p class="cell-note">{run.new_count.toLocaleString()} new</p>}
      </td>
    </tr>
  );
}

export default function Runs() {
  const q = place.value.query;
  const status = q.get('status') ?? '';
  const type = q.get('type') ?? '';
  const offset = Math.max(0, Number(q.get('offset')) || 0);
  const list = useResource((signal) => runs.list({ status: status || undefined, type: type || undefined, limit: PAGE, offset }, signal), [status, type, offset]);
  const data = list.data;
  // Runs still going settle while the list is open: it is read again every few seconds until none is.
  const going = data?.executions.some((r) => r.status === 'running') ?? false;
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(list.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [going, list.reload]);
  const filtered = Boolean(status || type);
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Runs</h1>
          <p class="lede">Every search svc has run: dives, sweeps and routine runs, newest first.</p>
        </div>
        <a class="button" href="/search">
          New search
        </a>
      </header>
      {(filtered || (data && data.total > 0)) && <Filters status={status} type={type} />}
      <ErrorNote error={list.error} title="svc could not list the runs." />
      {!data && list.loading && <Busy />}
      {data && data.total === 0 && (
        <EmptyState title={filtered ? 'No run matches these filters.' : 'No run yet.'}>
          {filtered ? (
            <p>
              <a href="/runs">Show every run</a>, or start one from <a href="/search">Search</a>.
            </p>
          ) : (
            <p>
              Start a dive or a sweep from <a href="/search">Search</a>: its progress, report and the papers it found appear here.
            </p>
          )}
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <>
          <p class="muted" aria-live="polite">
            {count(data.total, 'run')}
            {data.total > PAGE && `; ${data.offset + 1}–${data.offset + data.executions.length} shown`}
          </p>
          <div class="table-wrap" onKeyDown={moveThroughRows}>
            <table class="runs-table">
              <caption class="visually-hidden">Runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Query</th>
                  <th scope="col">Sources</th>
                  <th scope="col">Started</th>
                  <th scope="col" class="num">
                    Papers
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.executions.map((run) => (
                  <Row key={run.id} run={run} />
                ))}
              </tbody>
            </table>
          </div>
          {data.total > PAGE && (
            <nav class="pager" aria-label="Pages of runs">
              <PageLink to={offset > 0 ? href('/runs', { status, type, offset: Math.max(0, offset - PAGE) || undefined }) : null} label="Newer" />
              <PageLink to={offset + PAGE < data.total ? href('/runs', { status, type, offset: offset + PAGE }) : null} label="Older" />
            </nav>
          )}
        </>
      )}
    </>
  );
}
