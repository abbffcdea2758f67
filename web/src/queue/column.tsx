/**
 * One column of the board: the saved papers of one status that match the
 * filter, newest saved first, as the service pages them; more are asked for
 * on request. ↓/↑ move between its papers.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { readingQueue, type QueueEntry } from '../api/queue.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { QueueCard } from './card.js';
import { columnName, emptyColumn } from './words.js';

const PAGE = 50;
/** The most the service answers in one page (GET /api/reading-queue limit). */
const MOST = 500;

export interface FocusWish {
  status: string;
  index: number;
}

export function Column(props: {
  status: string;
  statuses: string[];
  query: string;
  /** Changes after every move or removal: the column is read again. */
  generation: number;
  busy: number | null;
  focus: { current: FocusWish | null };
  onMove: (entry: QueueEntry, to: string, index: number) => void;
  onRemove: (entry: QueueEntry, index: number) => void;
}) {
  const [shown, setShown] = useState(PAGE);
  useEffect(() => setShown(PAGE), [props.query]);
  const page = useResource((signal) => readingQueue.page({ status: props.status, q: props.query || undefined, limit: Math.min(shown, MOST) }, signal), [props.status, props.query, shown, props.generation]);
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const data = page.data;
  // After a move or removal the keyboard stays where it was: the paper that took the moved one's place, or the column.
  useEffect(() => {
    const wish = props.focus.current;
    if (!data || page.loading || wish?.status !== props.status) return;
    props.focus.current = null;
    const rows = list.current ? [...list.current.querySelectorAll<HTMLElement>('[data-row-link]')] : [];
    (rows[Math.min(wish.index, rows.length - 1)] ?? heading.current)?.focus();
  }, [data, page.loading]);
  const id = `column-${props.status}`;
  // The board takes its statuses from the keys of these counts, so a column is named by any string (a widening, no cast down).
  const whole = (data?.counts as Readonly<Record<string, number>> | undefined)?.[props.status] ?? 0;
  return (
    <section class="queue-column" aria-labelledby={id} data-column={props.status}>
      <h2 id={id} tabIndex={-1}>
        {columnName(props.status)}{' '}
        {data && (
          <span class="column-count">
            {props.query && data.total !== whole ? (
              <>
                {data.total.toLocaleString()} <span class="muted">of {whole.toLocaleString()}</span>
              </>
            ) : (
              data.total.toLocaleString()
            )}
          </span>
        )}
      </h2>
      <ErrorNote error={page.error} title={`svc could not list “${columnName(props.status)}”.`} />
      {!data && page.loading && <Busy />}
      {data && data.entries.length === 0 && <p class="column-empty">{props.query ? `No paper here matches “${props.query}”.` : emptyColumn(props.status)}</p>}
      {data && data.entries.length > 0 && (
        <ul class="queue-cards" ref={list} onKeyDown={moveThroughRows}>
          {data.entries.map((entry, i) => (
            <QueueCard
              key={entry.document_id}
              entry={entry}
              statuses={props.statuses}
              busy={props.busy === entry.document_id}
              onMove={(to) => props.onMove(entry, to, i)}
              onRemove={() => props.onRemove(entry, i)}
            />
          ))}
        </ul>
      )}
      {data && data.next_offset !== null && (
        shown < MOST ? (
          <button type="button" class="quiet more" onClick={() => setShown((n) => n + PAGE)} disabled={page.loading}>
            Show {Math.min(PAGE, data.total - data.entries.length).toLocaleString()} more of {(data.total - data.entries.length).toLocaleString()}
          </button>
        ) : (
          <p class="muted column-empty">The newest {MOST} are shown: filter by words to find older ones.</p>
        )
      )}
    </section>
  );
}
