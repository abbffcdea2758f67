/**
 * A typed confirmation for something that cannot be undone: what it does in
 * the service's words, the word to type (the service's too), and a button
 * that sends what was typed. The service judges it: a wrong or missing word
 * comes back as its refusal, shown beside the field.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

export const isConfirmRefusal = (err: unknown) => err instanceof ApiError && err.reason === 'confirmation_required';

export function TypedConfirm({ id, word, button, busyLabel, onConfirm, children }: { id: string; word: string; button: string; busyLabel?: string; onConfirm: (typed: string) => Promise<void>; children?: ComponentChildren }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onConfirm(typed);
      setTyped('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const beside = isConfirmRefusal(error) ? [(error as ApiError).message] : [];
  return (
    <form class="typed-confirm" onSubmit={submit} noValidate>
      {children}
      <div class="inline-form">
        <label for={id}>
          Type <code>{word}</code> to confirm
        </label>
        <input id={id} value={typed} autocomplete="off" spellcheck={false} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} aria-invalid={beside.length > 0} aria-describedby={beside.length ? `${id}-error` : undefined} />
        <button type="submit" class="danger" disabled={busy}>
          {busy ? (busyLabel ?? 'Working…') : button}
        </button>
        <FieldError id={`${id}-error`} messages={beside} />
        {beside.length === 0 && <ErrorNote error={error} />}
      </div>
    </form>
  );
}
