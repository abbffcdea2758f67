/**
 * One run: its progress per source, live over the event stream while it
 * goes; cancel and restart; then what it found (papers, references in every
 * format), its AI summary, the dated search record, the report, the log and
 * its deliveries. Everything shown is the service's account of the run.
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { runs, type RunDetail } from '../api/executions.js';
import { href, navigate } from '../router.js';
import { count, minute } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { Tabs } from '../ui/tabs.js';
import { useResource } from '../ui/use-resource.js';
import type { PageProps } from '../routes.js';
import { formLink } from '../search/form.js';
import { AiSummary } from '../runs/ai-summary.js';
import { Deliveries } from '../runs/deliveries.js';
import { ReferenceDownloads } from '../runs/exports.js';
import { useFollow } from '../runs/follow.js';
import { RunDocuments } from '../runs/run-documents.js';
import { RunLog } from '../runs/run-log.js';
import { SearchRecordView } from '../runs/search-record.js';
import { SourceTable } from '../runs/source-table.js';
import { InterruptedWhy, StatusChip } from '../runs/status.js';
import { duration } from '../runs/words.js';

const SUMMARY_POLL_MS = 2000;

/** The time now, ticking every second while `on` (a running run's elapsed times). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

function Actions({ run, onChanged }: { run: RunDetail; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => act(async () => void (await runs.cancel(run.id), onChanged()));
  const restart = () => act(async () => navigate(`/runs/${(await runs.restart(run.id)).id}`));
  const again =
    run.type === 'routine'
      ? null
      : href(
          '/search',
          formLink({
            mode: run.type,
            query: run.parameters.query,
            sources: run.repositories,
            dateFrom: run.parameters.date_from ?? '',
            dateTo: run.parameters.date_to ?? '',
            maxResults: String(run.parameters.max_results),
            keywords: run.parameters.keywords.join(', '),
          }),
        );
  return (
    <div class="run-actions">
      {run.status === 'running' ? (
        <button type="button" class="danger" onClick={cancel} disabled={busy || run.cancel_requested_at_utc !== null}>
          {run.cancel_requested_at_utc ? 'Cancelling…' : 'Cancel the run'}
        </button>
      ) : (
        <button type="button" onClick={restart} disabled={busy}>
          Run it again
        </button>
      )}
      {again && (
        <a class="button quiet" href={again}>
          Change and run again
        </a>
      )}
      <ErrorNote error={error} title={run.status === 'running' ? 'The run was not cancelled.' : 'The run was not restarted.'} />
    </div>
  );
}

function Report({ id, settled }: { id: number; settled: string | null }) {
  const report = useResource((signal) => runs.report(id, signal), [id, settled]);
  if (report.error) return <ErrorNote error={report.error} title="svc could not read the report." />;
  if (!report.data) return <Busy />;
  return (
    <>
      {report.data.report_path && (
        <p class="muted">
          Also written to <code>{report.data.report_path}</code>.
        </p>
      )}
      <pre class="report" tabIndex={0} aria-label="The report's text">
        {report.data.text}
      </pre>
    </>
  );
}

function Record({ id, settled }: { id: number; settled: string | null }) {
  const record = useResource((signal) => runs.searchRecord(id, signal), [id, settled]);
  if (record.error) return <ErrorNote error={record.error} title="svc could not read the search record." />;
  return record.data ? <SearchRecordView record={record.data} /> : <Busy />;
}

function Log({ id, settled, live }: { id: number; settled: string | null; live: ReturnType<typeof useFollow>['events'] }) {
  const log = useResource((signal) => (settled ? runs.log(id, signal) : Promise.resolve({ events: live })), [id, settled, settled ? 0 : live.length]);
  if (log.error) return <ErrorNote error={log.error} title="svc could not read the log." />;
  return log.data ? <RunLog events={log.data.events} /> : <Busy />;
}

function DeliveryTab({ id, routineId, settled }: { id: number; routineId: number | null; settled: string | null }) {
  const list = useResource((signal) => runs.deliveries(id, signal), [id, settled]);
  if (list.error) return <ErrorNote error={list.error} title="svc could not list the deliveries." />;
  return list.data ? <Deliveries list={list.data.deliveries} routineId={routineId} /> : <Busy />;
}

function Lineage({ run }: { run: RunDetail }) {
  if (run.restarted_from === null && run.restarted_into.length === 0) return null;
  return (
    <p class="lineage">
      {run.restarted_from !== null && (
        <>
          A restart of <a href={`/runs/${run.restarted_from}`}>run {run.restarted_from}</a>.{' '}
        </>
      )}
      {run.restarted_into.length > 0 && (
        <>
          Restarted as{' '}
          {run.restarted_into.map((next, i) => (
            <Fragment key={next}>
              {i > 0 && ', '}
              <a href={`/runs/${next}`}>run {next}</a>
            </Fragment>
          ))}
          .
        </>
      )}
    </p>
  );
}

function RunView({ run, reload }: { run: RunDetail; reload: () => void }) {
  const running = run.status === 'running';
  const follow = useFollow(run.id, running, reload);
  const now = useNow(running);
  const settled = run.finished_at_utc;
  // The AI summary is written after the run settles (its stream has ended by then): read the run again until it is.
  const summaryComing = !running && run.ai_lane.requested && (run.ai_lane.state === 'pending' || run.ai_lane.state === 'writing');
  useEffect(() => {
    if (!summaryComing) return;
    const timer = setInterval(reload, SUMMARY_POLL_MS);
    return () => clearInterval(timer);
  }, [summaryComing, reload]);
  const elapsed = run.timings.ms ?? now - Date.parse(run.started_at_utc);
  const names = run.sources.map((s) => s.name).join(', ');
  return (
    <>
      <header class="page-header">
        <nav aria-label="Breadcrumb" class="breadcrumb">
          <a href="/runs">Runs</a> <span aria-hidden="true">›</span> <span>Run {run.id}</span>
        </nav>
        <h1>{run.query ? `“${run.query}”` : `Run ${run.id}`}</h1>
        <p class="run-facts">
          <StatusChip status={run.status} cancelling={run.cancel_requested_at_utc !== null} /> <span>
            {run.type === 'dive' ? 'Dive' : run.type === 'sweep' ? 'Sweep' : `Run of routine ${run.routine_id}`} on {names}
          </span>
          <span>started {minute(run.started_at_utc)}</span>
          <span>
            {running ? 'running for' : 'took'} {duration(elapsed)}
          </span>
          <span>
            {count(run.result_count, 'paper')} ({run.new_count.toLocaleString()} new)
          </span>
        </p>
        <p class="run-facts muted">
          {run.parameters.keywords.length > 0 && <span>keywords {run.parameters.keywords.join(', ')}</span>}
          <span>{run.parameters.date_from || run.parameters.date_to ? `published ${run.parameters.date_from ?? 'any time'} to ${run.parameters.date_to ?? 'today'}` : 'any publication date'}</span>
          <span>up to {run.parameters.max_results.toLocaleString()} per source</span>
        </p>
        <Lineage run={run} />
        <Actions run={run} onChanged={reload} />
      </header>
      {run.status === 'failed' && run.error && (
        <div class="note note-error" role="alert">
          <strong class="note-title">The run failed.</strong>
          <p>{run.error}</p>
        </div>
      )}
      {run.status === 'interrupted' && (
        <div class="note note-warn">
          <strong class="note-title">The run was interrupted; what it found is kept.</strong>
          <p>
            <InterruptedWhy reason={run.interrupted_reason} meaning={run.interrupted_reason_meaning} />
          </p>
        </div>
      )}
      {running && run.cancel_requested_at_utc && <p class="note note-warn">Cancel asked at {minute(run.cancel_requested_at_utc)}: each source stops at its next check, and what was found is kept.</p>}
      {follow.trouble ? <ErrorNote error={follow.trouble} title="The live progress stopped; svc is asked again in a moment." /> : null}
      <section aria-labelledby="progress-heading" class="run-section">
        <h2 id="progress-heading">Sources</h2>
        <SourceTable sources={run.sources} live={follow.live} now={now} />
      </section>
      <AiSummary lane={run.ai_lane} />
      <section aria-labelledby="results-heading" class="run-section">
        <h2 id="results-heading" class="visually-hidden">
          What the run found and recorded
        </h2>
        <Tabs
          label="What the run found and recorded"
          tabs={[
            { id: 'papers', label: 'Papers', badge: run.result_count },
            { id: 'record', label: 'Search record' },
            { id: 'report', label: 'Report' },
            { id: 'log', label: 'Log' },
            { id: 'deliveries', label: 'Deliveries' },
          ]}
        >
          {(tab) =>
            tab === 'papers' ? (
              <>
                <ReferenceDownloads id={run.id} disabled={run.result_count === 0} />
                <RunDocuments id={run.id} settled={settled} progress={run.result_count} />
              </>
            ) : tab === 'record' ? (
              <Record id={run.id} settled={settled ?? `running ${run.result_count}`} />
            ) : tab === 'report' ? (
              <Report id={run.id} settled={settled} />
            ) : tab === 'log' ? (
              <Log id={run.id} settled={settled} live={follow.events} />
            ) : (
              <DeliveryTab id={run.id} routineId={run.routine_id} settled={settled} />
            )
          }
        </Tabs>
      </section>
    </>
  );
}

export default function Run({ params }: PageProps) {
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const detail = useResource((signal) => (valid ? runs.get(id, signal) : Promise.resolve(undefined)), [id]);
  if (!valid || (detail.error instanceof ApiError && detail.error.status === 404)) {
    return (
      <EmptyState title={`There is no run ${params.id}.`}>
        <p>
          It may have been deleted. <a href="/runs">See every run</a> or start one from <a href="/search">Search</a>.
        </p>
      </EmptyState>
    );
  }
  if (!detail.data) return detail.error ? <ErrorNote error={detail.error} title="svc could not read this run." /> : <Busy />;
  return (
    <>
      {detail.error ? <ErrorNote error={detail.error} title="svc could not read this run again; what is shown may be behind." /> : null}
      <RunView run={detail.data} reload={detail.reload} />
    </>
  );
}
