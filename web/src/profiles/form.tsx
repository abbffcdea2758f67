/**
 * Add a person (or a group) to follow: a name, an optional ORCID iD,
 * affiliations and aliases, one per line. The service checks everything; its
 * refusals are placed beside their field by the 422 item's `loc` (an ORCID
 * whose check digit does not agree is refused there, in its words).
 */
import { useState } from 'preact/hooks';
import { ApiError, type ValidationItem } from '../api/errors.js';
import { profiles, type NewProfile, type Profile } from '../api/profiles.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

type Field = 'kind' | 'name' | 'orcid' | 'affiliations' | 'aliases';
const FIELDS: Field[] = ['kind', 'name', 'orcid', 'affiliations', 'aliases'];

function placed(error: unknown): { byField: Partial<Record<Field, string[]>>; rest: ValidationItem[] } {
  const byField: Partial<Record<Field, string[]>> = {};
  const rest: ValidationItem[] = [];
  if (!(error instanceof ApiError)) return { byField, rest };
  for (const item of error.items) {
    const key = String(item.loc[1] ?? '') as Field;
    if (item.loc[0] === 'body' && FIELDS.includes(key)) (byField[key] ??= []).push(item.loc.length > 2 ? `Line ${Number(item.loc[2]) + 1}: ${item.msg}` : item.msg);
    else rest.push(item);
  }
  // Another profile already follows this ORCID: the refusal belongs beside the ORCID field.
  if (error.reason === 'profile_exists') (byField.orcid ??= []).push(error.message);
  return { byField, rest };
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

export function AddProfile({ onAdded }: { onAdded: (profile: Profile) => void }) {
  const [form, setForm] = useState({ kind: 'person' as 'person' | 'group', name: '', orcid: '', affiliations: '', aliases: '' });
  const [error, setError] = useState<unknown>(null);
  const [edited, setEdited] = useState<Field[]>([]);
  const [saving, setSaving] = useState(false);
  const set = (key: Field, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setEdited((e) => [...e, key]);
  };
  const { byField, rest } = placed(error);
  const errs = (key: Field) => (edited.includes(key) ? [] : (byField[key] ?? []));

  async function submit(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    setEdited([]);
    const body: NewProfile = { kind: form.kind, name: form.name, affiliations: lines(form.affiliations), aliases: lines(form.aliases) };
    if (form.orcid.trim()) body.orcid = form.orcid.trim();
    try {
      const created = await profiles.create(body);
      setForm({ kind: form.kind, name: '', orcid: '', affiliations: '', aliases: '' });
      onAdded(created);
    } catch (err) {
      setError(err);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.profile-form [aria-invalid="true"]')?.focus());
    } finally {
      setSaving(false);
    }
  }

  const described = (key: Field, hint?: boolean) => [hint ? `p-${key}-hint` : '', errs(key).length ? `p-${key}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <form class="card profile-form" onSubmit={submit} noValidate aria-labelledby="add-profile">
      <h2 id="add-profile">Follow someone</h2>
      <div class="field-row">
        <div class="field grow">
          <label for="p-name">Name</label>
          <input id="p-name" value={form.name} onInput={(e) => set('name', (e.target as HTMLInputElement).value)} aria-invalid={errs('name').length > 0} aria-describedby={described('name')} placeholder="e.g. Josiah Carberry" />
          <FieldError id="p-name-error" messages={errs('name')} />
        </div>
        <div class="field">
          <label for="p-kind">Kind</label>
          <select id="p-kind" value={form.kind} onChange={(e) => set('kind', (e.target as HTMLSelectElement).value)} aria-invalid={errs('kind').length > 0} aria-describedby={described('kind')}>
            <option value="person">a person</option>
            <option value="group">a group (lab, consortium)</option>
          </select>
          <FieldError id="p-kind-error" messages={errs('kind')} />
        </div>
      </div>
      <div class="field">
        <label for="p-orcid">ORCID iD (optional)</label>
        <input id="p-orcid" value={form.orcid} onInput={(e) => set('orcid', (e.target as HTMLInputElement).value)} aria-invalid={errs('orcid').length > 0} aria-describedby={described('orcid', true)} placeholder="0000-0002-1825-0097" spellcheck={false} />
        <p class="field-hint" id="p-orcid-hint">
          With an iD, svc matches papers by identity; without one, only by name — a string match, not an identity claim. The iD's last character is a check digit computed from the other fifteen, so a mistyped iD is refused.
        </p>
        <FieldError id="p-orcid-error" messages={errs('orcid')} />
      </div>
      <div class="field-row">
        <div class="field grow">
          <label for="p-affiliations">Affiliations, one per line</label>
          <textarea id="p-affiliations" rows={3} value={form.affiliations} onInput={(e) => set('affiliations', (e.target as HTMLTextAreaElement).value)} aria-invalid={errs('affiliations').length > 0} aria-describedby={described('affiliations')} />
          <FieldError id="p-affiliations-error" messages={errs('affiliations')} />
        </div>
        <div class="field grow">
          <label for="p-aliases">Other names, one per line</label>
          <textarea id="p-aliases" rows={3} value={form.aliases} onInput={(e) => set('aliases', (e.target as HTMLTextAreaElement).value)} aria-invalid={errs('aliases').length > 0} aria-describedby={described('aliases')} />
          <FieldError id="p-aliases-error" messages={errs('aliases')} />
        </div>
      </div>
      {rest.length > 0 && (
        <div class="note note-error" role="alert">
          {rest.map((i) => (
            <p key={i.msg}>{i.msg}</p>
          ))}
        </div>
      )}
      {error && !(error instanceof ApiError && (error.status === 422 || error.reason === 'profile_exists')) && <ErrorNote error={error} title="The profile was not added." />}
      <div class="form-actions">
        <button type="submit" disabled={saving || !form.name.trim()}>
          {saving ? 'Adding…' : 'Follow'}
        </button>
      </div>
    </form>
  );
}
