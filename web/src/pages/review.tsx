/**
 * Review (/review): the reports held by review-mode destinations, across
 * routines. The routes give them per routine, so the page reads the routine
 * list (whose delivery summary counts what awaits review), then each such
 * routine's held deliveries, all at once; each routine's group shows as it
 * arrives. A report is read in place; Deliver releases it (the only way out
 * of review), Skip drops it.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { deliveries, type DeliveryRow, type RoutineBrief } from '../api/deliveries.js';
import { minute, count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { makeMove, MOVE_LABEL, type Move } from '../delivery/actions.js';
import { NotifySwitch } from '../delivery/notify-switch.js';
import { CHANNEL_LABEL } from '../delivery/words.js';
import { countFrom } from '../watch/review-count.js';

/** The most held deliveries read per routine; more are reached from the routine's Deliveries page. */
const PER_ROUTINE = 200;

type Group = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'done'; rows: DeliveryRow[]; total: number };

function Report({ executionId }: { executionId: number }) {
  const report = useResource((signal) => deliveries.report(executionId, signal), [executionId]);
  if (report.error) return <ErrorNote error={report.error} title="svc could not read this report." />;
  if (!report.data) return <Busy label="Reading the report…" />;
  return (
    <pre class="report" tabIndex={0} aria-label={`Report of run ${executionId}`}>
      {report.data.text}
    </pre>
  );
}

function MoveButton({ d, move, onMoved }: { d: DeliveryRow; move: Move; onMoved: (d: DeliveryRow, move: Move) => void }) {
  const busy = useSignal(false);
  const failed = useSignal<unknown>(null);
  const go = async () => {
    busy.value = true;
    failed.value = null;
    try {
      await makeMove(move, d.id);
      onMoved(d, move);
    } catch (err) {
      failed.value = err;
      busy.value = false;
    }
  };
  return (
    <>
      <button type="button" class={move === 'skip' ? 'quiet' : undefined} disabled={busy.value} onClick={go} aria-label={`${MOVE_LABEL[move]} the report of run ${d.execution_id} to ${CHANNEL_LABEL[d.channel as keyof typeof CHANNEL_LABEL] ?? d.channel} (delivery ${d.id})`}>
        {MOVE_LABEL[move]}
        {busy.value && '…'}
      </button>
      <ErrorNote error={failed.value} />
    </>
  );
}

/** One run's held report: read it, then deliver or skip it per destination. */
function HeldRun({ executionId, rows, onMoved }: { executionId: number; rows: DeliveryRow[]; onMoved: (d: DeliveryRow, move: Move) => void }) {
  const open = useSignal(false);
  return (
    <li class="held" data-execution={executionId}>
      <div class="held-head">
        <h3>
          <a href={`/runs/${executionId}`}>Run {executionId}</a>
        </h3>
        <span class="muted">held since {minute(rows[0]!.created_at_utc)}</span>
        <button type="button" class="quiet" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
          {open.value ? 'Hide the report' : 'Read the report'}
        </button>
      </div>
      {open.value && <Report executionId={executionId} />}
      <ul class="held-targets">
        {rows.map((d) => (
          <li key={d.id} data-delivery={d.id}>
            <span>
              {CHANNEL_LABEL[d.channel as keyof typeof CHANNEL_LABEL] ?? d.channel} <span class="muted">(delivery {d.id})</span>
            </span>
            <MoveButton d={d} move="deliver" onMoved={onMoved} />
            <MoveButton d={d} move="skip" onMoved={onMoved} />
          </li>
        ))}
      </ul>
    </li>
  );
}

function RoutineGroup({ routine, group, onMoved }: { routine: RoutineBrief; group: Group; onMoved: (d: DeliveryRow, move: Move) => void }) {
  const byRun = new Map<number, DeliveryRow[]>();
  if (group.state === 'done') for (const d of group.rows) byRun.set(d.execution_id, [...(byRun.get(d.execution_id) ?? []), d]);
  return (
    <section class="review-group" aria-labelledby={`review-${routine.id}`} aria-busy={group.state === 'loading'}>
      <header class="review-group-head">
        <h2 id={`review-${routine.id}`}>{routine.name}</h2>
        <a href={`/routines/${routine.id}/delivery`}>Deliveries of this routine</a>
      </header>
      {group.state === 'loading' && <Busy label={`Gathering what ${routine.name} holds…`} />}
      {group.state === 'error' && <ErrorNote error={group.error} title={`svc could not list what ${routine.name} holds.`} />}
      {group.state === 'done' && byRun.size === 0 && <p class="muted">Nothing of this routine awaits review any more.</p>}
      {group.state === 'done' && byRun.size > 0 && (
        <ul class="held-list">
          {[...byRun].map(([executionId, rows]) => (
            <HeldRun key={executionId} executionId={executionId} rows={rows} onMoved={onMoved} />
          ))}
        </ul>
      )}
      {group.state === 'done' && group.total > group.rows.length && (
        <p class="muted">
          {count(group.total - group.rows.length, 'more report')} held: see <a href={`/routines/${routine.id}/delivery?state=awaiting_review`}>the routine's deliveries</a>.
        </p>
      )}
    </section>
  );
}

export default function Review() {
  const list = useResource((signal) => deliveries.routines(signal), []);
  const groups = useSignal<Record<number, Group>>({});
  const said = useSignal<string | null>(null);
  const asked = useRef<AbortController | null>(null);
  const holding = (list.data?.routines ?? []).filter((r) => r.delivery_summary.awaiting_review > 0);
  useEffect(() => {
    if (!list.data) return;
    countFrom(list.data.routines);
    asked.current?.abort();
    const controller = (asked.current = new AbortController());
    const set = (id: number, g: Group) => !controller.signal.aborted && (groups.value = { ...groups.value, [id]: g });
    groups.value = Object.fromEntries(holding.map((r) => [r.id, { state: 'loading' } as Group]));
    // Every routine at once: each group shows as soon as its own answer is in.
    for (const r of holding) {
      deliveries.ofRoutine(r.id, { state: 'awaiting_review', limit: PER_ROUTINE, offset: 0 }, controller.signal).then(
        (page) => set(r.id, { state: 'done', rows: page.deliveries, total: page.total }),
        (error) => (error as Error)?.name !== 'AbortError' && set(r.id, { state: 'error', error }),
      );
    }
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data]);
  const onMoved = (d: DeliveryRow, move: Move) => {
    const g = groups.value[d.routine_id ?? 0];
    if (g?.state === 'done') groups.value = { ...groups.value, [d.routine_id!]: { ...g, rows: g.rows.filter((x) => x.id !== d.id), total: g.total - 1 } };
    said.value = move === 'deliver' ? `Delivery ${d.id} released: the report of run ${d.execution_id} is on its way (its state is on the routine's Deliveries page).` : `Delivery ${d.id} skipped: the report of run ${d.execution_id} will not go there.`;
  };
  const waiting = Object.values(groups.value).reduce((n, g) => n + (g.state === 'done' ? g.total : 0), 0);
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Review</h1>
          <p class="lede">Reports held by a destination in review mode: read each one, then deliver it or skip it.</p>
        </div>
      </header>
      <NotifySwitch />
      {said.value && (
        <p class="note note-ok" role="status">
          {said.value}
        </p>
      )}
      <ErrorNote error={list.error} title="svc could not list the routines." />
      {!list.data && list.loading && <Busy />}
      {list.data && holding.length === 0 && (
        <EmptyState title="No report awaits review.">
          <p>
            A destination in review mode holds each report of its routine here until you deliver or skip it. Set one on a routine's Deliveries page
            {list.data.routines.length > 0 ? (
              <>
                {' '}
                (for example <a href={`/routines/${list.data.routines[0]!.id}/delivery`}>{list.data.routines[0]!.name}</a>).
              </>
            ) : (
              <>
                ; there is no routine yet: make one from <a href="/routines">Routines</a>.
              </>
            )}
          </p>
        </EmptyState>
      )}
      {holding.length > 0 && (
        <p class="muted" aria-live="polite">
          {Object.values(groups.value).every((g) => g.state !== 'loading') ? `${count(waiting, 'report')} awaiting review in ${count(holding.length, 'routine')}.` : `Gathering from ${count(holding.length, 'routine')}…`}
        </p>
      )}
      {holding.map((r) => (
        <RoutineGroup key={r.id} routine={r} group={groups.value[r.id] ?? { state: 'loading' }} onMoved={onMoved} />
      ))}
    </>
  );
}
