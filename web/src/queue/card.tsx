/**
 * A saved paper on the board: its title (opens the paper's page), authors,
 * year and venue, when it was saved or read, and one button per other status
 * to move it there, and Remove. Keyboard: the title is a link (Enter opens
 * it); the board's arrow keys move between titles.
 */
import type { QueueEntry } from '../api/queue.js';
import { minute, relative } from '../ui/format.js';
import { moveLabel } from './words.js';

function authors(list: string[]): string {
  if (list.length <= 3) return list.join(', ');
  return `${list.slice(0, 3).join(', ')} et al.`;
}

export function QueueCard(props: { entry: QueueEntry; statuses: string[]; busy: boolean; onMove: (status: string) => void; onRemove: () => void }) {
  const { entry } = props;
  const paper = entry.paper;
  const title = paper?.title ?? `Paper ${entry.document_id} (no longer in the corpus)`;
  const titleId = `queue-card-${entry.document_id}`;
  return (
    <li class="queue-card" data-document={entry.document_id}>
      <a href={`/papers/${entry.document_id}`} class="queue-card-title" id={titleId} data-row-link>
        {title}
      </a>
      {paper && (
        <p class="queue-card-meta">
          {paper.authors.length > 0 && <span>{authors(paper.authors)}</span>}
          {(paper.year || paper.venue) && <span>{[paper.year, paper.venue].filter(Boolean).join(' · ')}</span>}
          {paper.is_retracted && <span class="chip chip-danger">Retracted</span>}
        </p>
      )}
      <p class="queue-card-when">
        {entry.read_at_utc ? (
          <>
            read <time dateTime={entry.read_at_utc} title={minute(entry.read_at_utc)}>{relative(entry.read_at_utc)}</time>,{' '}
          </>
        ) : null}
        saved <time dateTime={entry.saved_at_utc} title={minute(entry.saved_at_utc)}>{relative(entry.saved_at_utc)}</time>
      </p>
      <div class="queue-card-actions" role="group" aria-labelledby={titleId}>
        {props.statuses
          .filter((s) => s !== entry.status)
          .map((s) => (
            <button key={s} type="button" class="quiet small" disabled={props.busy} onClick={() => props.onMove(s)} data-move={s}>
              {moveLabel(s)}
            </button>
          ))}
        <button type="button" class="quiet small" disabled={props.busy} onClick={props.onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
