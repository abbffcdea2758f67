/** Where this run's report was sent (a routine's destinations), and how each delivery stands. */
import type { Delivery } from '../api/deliveries.js';
import { STATE_CHIP, stateWords } from '../delivery/words.js';
import { minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';

export function Deliveries({ list, routineId }: { list: Delivery[]; routineId: number | null }) {
  if (list.length === 0) {
    return (
      <EmptyState title="This run's report was not delivered anywhere.">
        <p>{routineId === null ? 'Runs started by hand are not delivered; a routine with destinations (e-mail, folder, webhook, feed) sends its reports.' : 'The routine of this run has no destination that took this report.'}</p>
      </EmptyState>
    );
  }
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">State</th>
            <th scope="col" class="num">
              Attempts
            </th>
            <th scope="col">Last error</th>
            <th scope="col">Delivered</th>
          </tr>
        </thead>
        <tbody>
          {list.map((d) => (
            <tr key={d.id}>
              <td>
                {d.channel} <span class="muted">({d.mode})</span>
              </td>
              <td>
                <span class={STATE_CHIP[d.state]}>{stateWords(d.state)}</span>
              </td>
              <td class="num">
                {d.attempts} of {d.max_attempts}
              </td>
              <td>{d.last_error ?? '—'}</td>
              <td>{minute(d.delivered_at_utc)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
