/**
 * The notes of this file version: page and quote, the body, and on the page
 * shown whether each passage is highlighted or why it is not (an anchor that
 * no longer matches is named, never moved). A passage on another page is a
 * link to that page.
 */
import type { NotHighlighted, Note } from '../api/reader.js';
import { href } from '../router.js';
import { minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { NOT_HIGHLIGHTED_WORDS } from './words.js';

export interface NotesListProps {
  notes: Note[];
  page: number;
  path: string;
  highlighted: Set<number>;
  notHighlighted: NotHighlighted[];
  showNote: (noteId: number) => void;
}

export function NotesList({ notes, page, path, highlighted, notHighlighted, showNote }: NotesListProps) {
  const why = new Map(notHighlighted.map((n) => [n.note_id, n.reason]));
  return (
    <section class="reader-notes" aria-labelledby="reader-notes-title">
      <h2 id="reader-notes-title">Notes on this file ({notes.length})</h2>
      {notes.length === 0 ? (
        <EmptyState title="No notes on this file yet.">
          <p>Select words in the page text and choose “Note on selection”, find a phrase and choose “Note on this match”, or write a plain note.</p>
        </EmptyState>
      ) : (
        <ol class="reader-note-list">
          {notes.map((n) => (
            <li key={n.note_id} class="reader-note" data-note-id={n.note_id}>
              <p class="reader-note-where">
                {n.anchor ? `Page ${n.anchor.page}` : 'Plain note'} · {minute(n.created_at_utc)}
                {n.anchor && n.anchor.page === page && highlighted.has(n.note_id) && (
                  <>
                    {' · '}
                    <button type="button" class="link-button" onClick={() => showNote(n.note_id)}>
                      Show on the page
                    </button>
                  </>
                )}
                {n.anchor && n.anchor.page !== page && (
                  <>
                    {' · '}
                    <a href={href(path, { page: n.anchor.page, note: n.note_id })}>Go to page {n.anchor.page}</a>
                  </>
                )}
              </p>
              {n.anchor && <blockquote class="note-quote">{n.anchor.quote}</blockquote>}
              {n.body && <p class="reader-note-body">{n.body}</p>}
              {why.has(n.note_id) && (
                <p class="chip chip-warn not-highlighted">Not highlighted: {NOT_HIGHLIGHTED_WORDS[why.get(n.note_id)!]}.</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
