/**
 * A routine's deliveries (/routines/<id>/delivery): where its reports go —
 * each destination with its channel, mode and state, changed in place — and
 * every delivery made for its runs, newest first, with its state, attempts
 * and last error, filtered by state in the address (?state=…&offset=…).
 * Deliveries still on their way are read again every few seconds.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { deliveries, STATES, type DeliveryState } from '../api/deliveries.js';
import type { PageProps } from '../routes.js';
import { href, navigate, place } from '../router.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { DeliveryTable } from '../delivery/delivery-table.js';
import { TargetForm } from '../delivery/target-form.js';
import { TargetList } from '../delivery/targets.js';
import { stateWords } from '../delivery/words.js';

const PAGE = 50;
const REFRESH_MS = 2000;

function Destinations({ routineId, emailEnabled, onChange }: { routineId: number; emailEnabled: boolean; onChange: () => void }) {
  const list = useResource((signal) => deliveries.targets(routineId, signal), [routineId]);
  const said = useSignal<string | null>(null);
  const changed = (words: string | null) => {
    said.value = words;
    list.reload();
    onChange();
  };
  return (
    <section class="run-section" aria-labelledby="destinations-title">
      <h2 id="destinations-title">Destinations</h2>
      <p class="muted">Every run of this routine that completes sends its report to each enabled destination. A destination in review mode holds it in Review until you deliver or skip it.</p>
      <ErrorNote error={list.error} title="svc could not list the destinations." />
      {said.value && (
        <p class="note note-ok" role="status">
          {said.value}
        </p>
      )}
      {!list.data && list.loading && <Busy />}
      {list.data && <TargetList targets={list.data.targets} emailEnabled={emailEnabled} onChanged={() => changed(null)} onRemoved={(n) => changed(`Destination removed.${n ? ` ${count(n, 'delivery', 'deliveries')} still waiting for it ${n === 1 ? 'was' : 'were'} skipped.` : ''}`)} />}
      <TargetForm routineId={routineId} onAdded={(t) => changed(`Destination ${t.id} added (${t.channel}, ${t.mode}${t.enabled ? '' : ', disabled'}).`)} />
    </section>
  );
}

function History({ routineId, generation }: { routineId: number; generation: number }) {
  const q = place.value.query;
  const asked = q.get('state') ?? '';
  const state = (STATES as readonly string[]).includes(asked) ? (asked as DeliveryState) : undefined;
  const offset = Math.max(0, Number(q.get('offset')) || 0);
  const list = useResource((signal) => deliveries.ofRoutine(routineId, { state, limit: PAGE, offset }, signal), [routineId, state, offset, generation]);
  const data = list.data;
  const moving = data?.deliveries.some((d) => d.state === 'queued' || d.state === 'delivering') ?? false;
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(list.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [moving, list.reload]);
  const path = place.value.path;
  const go = (patch: Record<string, string | number | undefined>) => navigate(href(path, { state, offset: undefined, ...patch }), { replace: true });
  return (
    <section class="run-section" aria-labelledby="history-title">
      <h2 id="history-title">Deliveries</h2>
      <form class="filters" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="delivery-state">State</label>
          <select id="delivery-state" value={state ?? ''} onChange={(e) => go({ state: (e.target as HTMLSelectElement).value || undefined })}>
            <option value="">Any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {stateWords(s)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorNote error={list.error} title="svc could not list the deliveries." />
      {!data && list.loading && <Busy />}
      {data && data.total === 0 && (
        <EmptyState title={state ? `No delivery is ${stateWords(state)}.` : 'No report of this routine has been delivered yet.'}>
          <p>{state ? <a href={path}>Show every delivery</a> : 'A delivery is made for each enabled destination when a run of this routine completes: add a destination above, then run the routine.'}</p>
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <>
          <p class="muted" aria-live="polite">
            {count(data.total, 'delivery', 'deliveries')}
            {data.total > PAGE && `; ${data.offset + 1}–${data.offset + data.deliveries.length} shown`}
          </p>
          <DeliveryTable list={data.deliveries} caption="Deliveries of this routine, newest first" onMoved={list.reload} />
          {data.total > PAGE && (
            <nav class="pager" aria-label="Pages of deliveries">
              <button type="button" class="quiet" disabled={offset === 0} onClick={() => go({ offset: Math.max(0, offset - PAGE) || undefined })}>
                Newer
              </button>
              <button type="button" class="quiet" disabled={data.next_offset === null} onClick={() => go({ offset: data.next_offset ?? undefined })}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

export default function RoutineDelivery({ params }: PageProps) {
  const id = Number(params.id);
  const routine = useResource((signal) => deliveries.routine(id, signal), [id]);
  const generation = useSignal(0);
  const r = routine.data;
  const name = r?.name ?? `Routine ${id}`;
  return (
    <>
      <header class="page-header">
        <nav aria-label="Breadcrumb" class="breadcrumb">
          <a href="/routines">Routines</a> <span aria-hidden="true">›</span> <a href={`/routines/${id}`}>{name}</a> <span aria-hidden="true">›</span> <span>Deliveries</span>
        </nav>
        <h1>Deliveries of “{name}”</h1>
        {r && r.delivery_summary.awaiting_review > 0 && (
          <p class="lede">
            <a href="/review">{count(r.delivery_summary.awaiting_review, 'report')} awaiting review</a>
          </p>
        )}
      </header>
      <ErrorNote error={routine.error} title={`svc could not read routine ${id}.`} />
      {/* Asked at once beside the routine (no waterfall): a routine that does not exist says so in each. */}
      <Destinations routineId={id} emailEnabled={r?.email_enabled ?? false} onChange={() => (generation.value++, routine.reload())} />
      <History routineId={id} generation={generation.value} />
    </>
  );
}
