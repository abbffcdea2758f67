/**
 * The contact e-mail for the polite pools (email.contact_email): Crossref,
 * OpenAlex and NCBI serve requests that name one from their faster pools.
 * Used on Home (first steps) and on Sources; a refusal is shown beside it.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { itemsFor } from '../api/errors.js';
import type { SettingsGroup } from '../api/types.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

export function ContactEmail({ current = '', onSaved }: { current?: string; onSaved: (value: string) => void }) {
  const [value, setValue] = useState(current);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const fieldErrors = itemsFor(error, 'contact_email').map((i) => i.msg);
  async function save(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const answer = await api.put<SettingsGroup<{ contact_email: string }>>('/api/settings/email', { settings: { contact_email: value.trim() } });
      onSaved(answer.settings.contact_email);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }
  return (
    <form class="inline-form" onSubmit={save} noValidate>
      <label for="contact-email">Contact e-mail</label>
      <input
        id="contact-email"
        type="email"
        autocomplete="email"
        value={value}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        aria-invalid={fieldErrors.length > 0}
        aria-describedby={fieldErrors.length ? 'contact-email-error' : undefined}
        placeholder="you@example.org"
      />
      <button type="submit" disabled={saving || value.trim() === current}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <FieldError id="contact-email-error" messages={fieldErrors} />
      {fieldErrors.length === 0 && <ErrorNote error={error} />}
    </form>
  );
}
