/** How the window says something went wrong, or that there is nothing yet: in words, never raw JSON. */
import type { ComponentChildren } from 'preact';
import { ApiError, reasonWords } from '../api/errors.js';

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api ? api.message : error instanceof Error ? error.message : String(error);
  return (
    <div class="note note-error" role="alert">
      {title && <strong class="note-title">{title}</strong>}
      <p>{message}</p>
      {api && api.status !== 0 && api.reason !== 'validation_failed' && <p class="note-reason">svc's reason: {reasonWords(api.reason)}</p>}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-next">{children}</div>}
    </div>
  );
}

export function Busy({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** The messages of a 422 that belong beside one field, in the service's words. */
export function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p class="field-error" id={id} role="alert">
      {messages.join(' ')}
    </p>
  );
}
