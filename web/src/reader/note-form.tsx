/**
 * A new note: on a passage (its quote shown, its anchor built from the page
 * text's codepoint offsets and verified by the service) or plain (a body).
 * The service's refusals are shown in its words, beside the body when the
 * 422 item names it; a stale project revision says so, and the reader reloads.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, itemsFor } from '../api/errors.js';
import type { Anchor } from '../api/reader.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

export interface NoteDraft {
  kind: 'plain' | 'passage';
  anchor: Anchor | null;
}

export interface NoteFormProps {
  draft: NoteDraft;
  save: (body: string) => Promise<void>;
  cancel: () => void;
}

/** The refusals that belong beside the body: a 422 item whose loc names it, or the service's body reasons (which carry no loc). */
const BODY_REASONS = new Set(['body_empty', 'body_invalid']);
function bodyRefusals(error: unknown): string[] {
  if (error instanceof ApiError && BODY_REASONS.has(error.reason)) return [error.message];
  return itemsFor(error, 'body').map((i) => i.msg);
}

export function NoteForm({ draft, save, cancel }: NoteFormProps) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const bodyErrors = bodyRefusals(error);
  const field = useRef<HTMLTextAreaElement>(null);
  // The form opens where the note is typed (an autofocus attribute counts only when a document loads).
  useEffect(() => field.current?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await save(body);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form class="note-form" onSubmit={submit} aria-labelledby="note-form-title">
      <h2 id="note-form-title">{draft.kind === 'passage' ? `New note on page ${draft.anchor!.page}` : 'New plain note on this file'}</h2>
      {draft.anchor && <blockquote class="note-quote">{draft.anchor.quote}</blockquote>}
      <div class="field">
        <label for="note-body">{draft.kind === 'passage' ? 'Your note (may be empty: the passage alone is kept)' : 'Your note'}</label>
        <textarea id="note-body" rows={3} value={body} onInput={(e) => setBody(e.currentTarget.value)} aria-invalid={bodyErrors.length > 0 || undefined} aria-describedby={bodyErrors.length > 0 ? 'note-body-error' : undefined} ref={field} />
        <FieldError id="note-body-error" messages={bodyErrors} />
      </div>
      {bodyErrors.length === 0 && <ErrorNote error={error} title="svc did not save the note." />}
      <div class="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save note'}
        </button>
        <button type="button" class="quiet" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
