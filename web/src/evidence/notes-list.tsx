/**
 * A project's saved notes, oldest first as the service pages them: the file,
 * the page, the exact quote of a passage note and the note's text, each with
 * a link that opens the reader at its page.
 */
import type { Member, Note } from '../api/evidence.js';
import { minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { readerHref } from './members.js';

export function NotesList({ projectId, notes, members }: { projectId: string; notes: Note[]; members: Member[] }) {
  if (notes.length === 0) {
    return (
      <EmptyState title="No note yet.">
        <p>Open a file of this project, select a passage of its text and choose “Note”; plain notes can be written there too.</p>
      </EmptyState>
    );
  }
  const nameOf = (n: Note) => members.find((m) => m.file_id === n.file_id && m.version_id === n.version_id)?.original_name ?? `file ${n.file_id.slice(0, 8)} (no longer in the project)`;
  return (
    <ol class="notes-list">
      {notes.map((n) => (
        <li key={n.note_id} class="evidence-note">
          <p class="note-where">
            <a href={readerHref(projectId, n.file_id, n.anchor?.page)}>
              {nameOf(n)}
              {n.anchor ? `, page ${n.anchor.page}` : ''}
            </a>{' '}
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
