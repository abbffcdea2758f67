/**
 * Deliveries in a table: which run, which channel, the state, the attempts
 * made of those allowed, the last error in the service's words (which never
 * carry a destination or a secret), and the moves the state allows.
 */
import { useSignal } from '@preact/signals';
import type { Delivery } from '../api/deliveries.js';
import { minute } from '../ui/format.js';
import { ErrorNote } from '../ui/notes.js';
import { makeMove, MOVE_LABEL, movesFor, type Move } from './actions.js';
import { CHANNEL_LABEL, STATE_CHIP, stateWords } from './words.js';

function Moves({ delivery, onMoved }: { delivery: Delivery; onMoved: () => void }) {
  const busy = useSignal<Move | null>(null);
  const failed = useSignal<unknown>(null);
  const moves = movesFor(delivery);
  if (moves.length === 0) return null;
  const run = async (move: Move) => {
    busy.value = move;
    failed.value = null;
    try {
      await makeMove(move, delivery.id);
      onMoved();
    } catch (err) {
      failed.value = err;
    } finally {
      busy.value = null;
    }
  };
  return (
    <div class="row-actions">
      {moves.map((m) => (
        <button key={m} type="button" class={m === 'skip' ? 'quiet' : undefined} disabled={busy.value !== null} aria-label={`${MOVE_LABEL[m]} delivery ${delivery.id}`} onClick={() => run(m)}>
          {busy.value === m ? `${MOVE_LABEL[m]}…` : MOVE_LABEL[m]}
        </button>
      ))}
      <ErrorNote error={failed.value} />
    </div>
  );
}

export function AttemptsCell({ d }: { d: Delivery }) {
  return (
    <>
      {d.attempts} of {d.max_attempts}
      {d.next_attempt_at_utc && <p class="cell-note">next {minute(d.next_attempt_at_utc)}</p>}
    </>
  );
}

export function DeliveryTable({ list, caption, onMoved, showRun = true }: { list: Delivery[]; caption: string; onMoved: () => void; showRun?: boolean }) {
  return (
    <div class="table-wrap">
      <table class="delivery-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Delivery</th>
            {showRun && <th scope="col">Run</th>}
            <th scope="col">Channel</th>
            <th scope="col">State</th>
            <th scope="col" class="num">
              Attempts
            </th>
            <th scope="col">Last error</th>
            <th scope="col">Created</th>
            <th scope="col">Delivered</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((d) => (
            <tr key={d.id} data-delivery={d.id}>
              <td>{d.id}</td>
              {showRun && (
                <td>
                  <a href={`/runs/${d.execution_id}?tab=deliveries`}>Run {d.execution_id}</a>
                </td>
              )}
              <td>
                {CHANNEL_LABEL[d.channel]}
                <p class="cell-note">{d.origin === 'routine_email' ? 'routine e-mail' : d.mode === 'review' ? 'held for review' : 'automatic'}</p>
              </td>
              <td>
                <span class={STATE_CHIP[d.state]}>{stateWords(d.state)}</span>
              </td>
              <td class="num">
                <AttemptsCell d={d} />
              </td>
              <td class="error-cell">{d.last_error ?? '—'}</td>
              <td>
                <time dateTime={d.created_at_utc}>{minute(d.created_at_utc)}</time>
              </td>
              <td>{minute(d.delivered_at_utc)}</td>
              <td>
                <Moves delivery={d} onMoved={onMoved} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
