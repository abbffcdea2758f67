/**
 * Review (/review): the reports held by review-mode destinations, across
 * routines. The routes give them per routine, so the page reads the routine
 * list (whose delivery summary counts what awaits review), then each such
 * routine's held deliveries, a few at a time in the list's order
 * (routines/gather.ts); each routine's group shows as it arrives. Each group
 * keeps its own signal, so an answer draws its group alone, not the 200
 * others, and groups out of sight are not laid out (app.css). The asking
 * starts from the list the window last read for the review badge, while the
 * page reads the list again: the held deliveries shown are always this
 * visit's answers, and the fresh list adds the routines that began holding
 * since and drops those that stopped. A report is read in place; Deliver
 * releases it (the only way out of review), Skip drops it.
 */
import { signal, useSignal, type ReadonlySignal, type Signal } from '@preact/signals';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { deliveries, type Delivery, type RoutineBrief } from '../api/deliveries.js';
import { minute, count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { makeMove, MOVE_LABEL, type Move } from '../delivery/actions.js';
import { NotifySwitch } from '../delivery/notify-switch.js';
import { CHANNEL_LABEL } from '../delivery/words.js';
import { countFrom, lastRoutineList } from '../watch/review-count.js';
import { gatherer } from '../routines/gather.js';

/** The most held deliveries read per routine; more are reached from the routine's Deliveries page. */
const PER_ROUTINE = 200;

type Group = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'done'; rows: Delivery[]; total: number };

/** A routine that holds reports, and what the page has gathered of them. */
interface Slot {
  routine: RoutineBrief;
  group: Signal<Group>;
}

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

function MoveButton({ d, move, onMoved }: { d: Delivery; move: Move; onMoved: (d: Delivery, move: Move) => void }) {
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
function HeldRun({ executionId, rows, onMoved }: { executionId: number; rows: Delivery[]; onMoved: (d: Delivery, move: Move) => void }) {
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

function RoutineGroup({ slot, onMoved }: { slot: Slot; onMoved: (d: Delivery, move: Move) => void }) {
  const { routine } = slot;
  const group = slot.group.value;
  const byRun = new Map<number, Delivery[]>();
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

/** How many reports wait, once every group has answered; until then, that it is still gathering. */
function Tally({ slots }: { slots: Slot[] }) {
  const groups = slots.map((s) => s.group.value);
  const waiting = groups.reduce((n, g) => n + (g.state === 'done' ? g.total : 0), 0);
  return (
    <p class="muted" aria-live="polite">
      {groups.every((g) => g.state !== 'loading') ? `${count(waiting, 'report')} awaiting review in ${count(slots.length, 'routine')}.` : `Gathering from ${count(slots.length, 'routine')}…`}
    </p>
  );
}

function Said({ said }: { said: ReadonlySignal<string | null> }) {
  if (!said.value) return null;
  return (
    <p class="note note-ok" role="status">
      {said.value}
    </p>
  );
}

export default function Review() {
  const list = useResource((signal) => deliveries.routines(signal), []);
  const [held] = useState(() => lastRoutineList.peek());
  const said = useSignal<string | null>(null);
  const groups = useRef(new Map<number, Signal<Group>>());
  const asked = useRef(new Set<number>());
  const [gather] = useState(() => {
    const controller = new AbortController();
    return { controller, queue: gatherer(controller.signal) };
  });
  const routines = list.data?.routines ?? held ?? [];
  const slots = useMemo<Slot[]>(
    () =>
      routines
        .filter((r) => r.delivery_summary.awaiting_review > 0)
        .map((routine) => {
          let group = groups.current.get(routine.id);
          if (!group) groups.current.set(routine.id, (group = signal<Group>({ state: 'loading' })));
          return { routine, group };
        }),
    [routines],
  );
  // Asked as soon as the groups are in the page, not after it is painted: the first answer is what the person waits for.
  useLayoutEffect(() => {
    const toAsk = slots.filter((s) => !asked.current.has(s.routine.id));
    for (const s of toAsk) asked.current.add(s.routine.id);
    gather.queue.add(
      toAsk,
      (s) => deliveries.ofRoutine(s.routine.id, { state: 'awaiting_review', limit: PER_ROUTINE, offset: 0 }, gather.controller.signal),
      (s, outcome) => (s.group.value = 'answer' in outcome ? { state: 'done', rows: outcome.answer.deliveries, total: outcome.answer.total } : { state: 'error', error: outcome.error }),
    );
  }, [slots]);
  useLayoutEffect(() => () => gather.controller.abort(), []);
  useLayoutEffect(() => {
    if (list.data) countFrom(list.data.routines);
  }, [list.data]);
  const onMoved = (d: Delivery, move: Move) => {
    const group = groups.current.get(d.routine_id ?? 0);
    const g = group?.value;
    if (group && g?.state === 'done') group.value = { ...g, rows: g.rows.filter((x) => x.id !== d.id), total: g.total - 1 };
    said.value = move === 'deliver' ? `Delivery ${d.id} released: the report of run ${d.execution_id} is on its way (its state is on the routine's Deliveries page).` : `Delivery ${d.id} skipped: the report of run ${d.execution_id} will not go there.`;
  };
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Review</h1>
          <p class="lede">Reports held by a destination in review mode: read each one, then deliver it or skip it.</p>
        </div>
      </header>
      <NotifySwitch />
      <Said said={said} />
      <ErrorNote error={list.error} title="svc could not list the routines." />
      {!list.data && list.loading && slots.length === 0 && <Busy />}
      {list.data && slots.length === 0 && (
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
      {slots.length > 0 && <Tally slots={slots} />}
      {slots.map((s) => (
        <RoutineGroup key={s.routine.id} slot={s} onMoved={onMoved} />
      ))}
    </>
  );
}
