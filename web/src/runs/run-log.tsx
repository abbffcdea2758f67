/** A run's log: every event with its time, source and words, warnings and errors marked. */
import type { RunEvent } from '../api/executions.js';
import { EmptyState } from '../ui/notes.js';

const time = (iso: string) => iso.slice(11, 19);

export function RunLog({ events }: { events: RunEvent[] }) {
  if (events.length === 0) return <EmptyState title="Nothing is logged yet." />;
  return (
    <ol class="run-log" aria-label="Run log">
      {events.map((e) => (
        <li key={e.seq} class={`log-${e.level}`}>
          <time dateTime={e.at_utc}>{time(e.at_utc)}</time>
          {e.level !== 'info' && <span class={e.level === 'error' ? 'chip chip-danger' : 'chip chip-warn'}>{e.level}</span>}
          <span class="log-message">{e.message}</span>
        </li>
      ))}
    </ol>
  );
}
