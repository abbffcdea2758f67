/**
 * A project's saved notes, oldest first as the service pages them: the file,
 * the page, the exact quote of a passage note and the note's text, each with
 * a link that opens the reader at its page. A note whose file was removed
 * from the project stays (the spec keeps it) and says so, named by the
 * Library's record of the file.
 */
import type { Member, Note } from '../api/evidence.js';
import { minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { readerHref } from './members.js';

export function NotesList({ projectId, notes, members, names }: { projectId: string; notes: Note[]; members: Member[]; names: Record<string, string> }) {
  if (notes.length === 0) {
    return (
      <EmptyState title="No note yet.">
        <p>Open a file of this project, select a passage of its text and choose “Note”; plain notes can be written there too.</p>
      </EmptyState>
    );
  }
  const memberOf = (n: Note) => members.find((m) => m.file_id === n.file_id && m.version_id === n.version_id);
  return (
    <ol class="notes-list">
      {notes.map((n) => (
        <li key={n.note_id} class="evidence-note">
          <p class="note-where">
            {memberOf(n) ? (
              <a href={readerHref(projectId, n.file_id, n.anchor?.page)}>
                {memberOf(n)!.original_name}
                {n.anchor ? `, page ${n.anchor.page}` : ''}
              </a>
            ) : (
              <span>
                {names[n.file_id] ?? 'A file'}
                {n.anchor ? `, page ${n.anchor.page}` : ''} <span class="chip chip-warn">not in the project now: add it again to read it</span>
              </span>
            )}{' '}
            <span class="muted">
              {n.kind === 'passage' ? 'passage note' : 'note'}, {minute(n.updated_at_utc)}
            </span>
          </p>
          {n.anchor && <blockquote class="note-quote">{n.anchor.quote}</blockquote>}
          {n.body && <p class="note-body">{n.body}</p>}
        </li>
      ))}
    </ol>
  );
}
