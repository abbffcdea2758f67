/**
 * One settings group as a form, drawn from the service's description of its
 * keys (type, choices, range, sentence). Only the values that changed are
 * sent; a refusal is placed beside its field by the 422 item's `loc`
 * (["body", "settings", key], or ["body", key] for execution). Pages may give
 * a key its choices (the AI provider from the connections svc offers) or
 * suggestions (the model ids a provider lists).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { writeGroup, type Group, type GroupAnswer, type KeyDescription, type SettingValue } from '../api/settings.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

export interface Choice {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface GroupFormProps {
  group: Group;
  answer: GroupAnswer;
  labels: Record<string, string>;
  choices?: Record<string, Choice[]>;
  suggestions?: Record<string, string[]>;
  /** Drawn after a key's field (a "list models" button beside the model). */
  after?: Record<string, ComponentChildren>;
  onSaved: () => void;
  /** The values as typed, for pages that act on them before saving (list models for the provider chosen). */
  onDraft?: (draft: Record<string, SettingValue>) => void;
}

/** The key a 422 item names: the last string of its loc. */
const keyOf = (loc: (string | number)[]) => String(loc[loc.length - 1]);

function asText(value: SettingValue): string {
  return value === null || value === undefined ? '' : String(value);
}

/** What the typed text is as a value of `desc`'s type; a number field left as typed when it is not one, so the service says why. */
function fromText(desc: KeyDescription, text: string): SettingValue {
  if (desc.type === 'integer') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (desc.type === 'nullable-string') return text.trim() === '' ? null : text;
  return text;
}

export function GroupForm({ group, answer, labels, choices = {}, suggestions = {}, after = {}, onSaved, onDraft }: GroupFormProps) {
  const [draft, setDraft] = useState<Record<string, SettingValue>>(answer.settings);
  const [error, setError] = useState<unknown>(null);
  const [edited, setEdited] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState('');
  useEffect(() => setDraft(answer.settings), [answer]);
  useEffect(() => onDraft?.(draft), [draft]);

  const changed = Object.fromEntries(Object.entries(draft).filter(([k, v]) => v !== answer.settings[k]));
  const set = (key: string, value: SettingValue) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setEdited((e) => [...e, key]);
    setSaved('');
  };
  const items = error instanceof ApiError && error.status === 422 ? error.items : [];
  const errs = (key: string) => (edited.includes(key) ? [] : items.filter((i) => keyOf(i.loc) === key).map((i) => i.msg));
  const unplaced = items.filter((i) => !(keyOf(i.loc) in answer.keys));

  async function submit(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    setEdited([]);
    try {
      await writeGroup(group, changed, answer.settings);
      setSaved(`Saved ${Object.keys(changed).length === 1 ? 'the change' : `${Object.keys(changed).length} changes`}.`);
      onSaved();
    } catch (err) {
      setError(err);
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`#settings-${group} [aria-invalid="true"]`)?.focus());
    } finally {
      setSaving(false);
    }
  }

  return (
    <form id={`settings-${group}`} class="settings-form" onSubmit={submit} noValidate aria-label={`${group} settings`}>
      {Object.entries(answer.keys).map(([key, desc]) => {
        const id = `${group}-${key}`;
        const fieldErrors = errs(key);
        const describedBy = [`${id}-doc`, fieldErrors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
        const label = labels[key] ?? key.replace(/_/g, ' ');
        const common = { id, name: key, 'aria-invalid': fieldErrors.length > 0, 'aria-describedby': describedBy };
        const options = choices[key] ?? desc.one_of?.map((v) => ({ value: v, label: v }));
        let control;
        if (desc.type === 'boolean') {
          control = (
            <label class="check" for={id}>
              <input {...common} type="checkbox" checked={draft[key] === true} onChange={(e) => set(key, (e.target as HTMLInputElement).checked)} />
              {label}
            </label>
          );
        } else if (options) {
          const current = asText(draft[key]);
          control = (
            <select {...common} value={current} onChange={(e) => set(key, fromText(desc, (e.target as HTMLSelectElement).value))}>
              {desc.type === 'nullable-string' && <option value="">(none)</option>}
              {!options.some((o) => o.value === current) && current !== '' && <option value={current}>{current}</option>}
              {options.map((o) => (
                <option key={o.value} value={o.value} disabled={o.disabled}>
                  {o.label}
                </option>
              ))}
            </select>
          );
        } else {
          const list = suggestions[key];
          control = (
            <>
              <input
                {...common}
                type={desc.type === 'integer' ? 'number' : 'text'}
                min={desc.min}
                max={desc.max}
                list={list?.length ? `${id}-list` : undefined}
                value={asText(draft[key])}
                onInput={(e) => set(key, fromText(desc, (e.target as HTMLInputElement).value))}
              />
              {list?.length ? (
                <datalist id={`${id}-list`}>
                  {list.map((v) => (
                    <option key={v} value={v} />
                  ))}
                </datalist>
              ) : null}
            </>
          );
        }
        return (
          <div class="field" key={key}>
            {desc.type !== 'boolean' && <label for={id}>{label}</label>}
            {control}
            <p class="field-hint" id={`${id}-doc`}>
              {desc.doc}
              {desc.type === 'integer' && ` (${desc.min}–${desc.max})`}
            </p>
            <FieldError id={`${id}-error`} messages={fieldErrors} />
            {after[key]}
          </div>
        );
      })}
      {unplaced.length > 0 && (
        <div class="note note-error" role="alert">
          {unplaced.map((i) => (
            <p key={i.msg}>{i.msg}</p>
          ))}
        </div>
      )}
      {error && items.length === 0 && <ErrorNote error={error} title="The settings were not saved." />}
      <div class="form-actions">
        <button type="submit" disabled={saving || Object.keys(changed).length === 0}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {Object.keys(changed).length > 0 && (
          <button type="button" class="quiet" onClick={() => (setDraft(answer.settings), setError(null))}>
            Undo changes
          </button>
        )}
        <span class="muted" role="status">
          {saved || (Object.keys(changed).length > 0 ? `${Object.keys(changed).length} unsaved ${Object.keys(changed).length === 1 ? 'change' : 'changes'}` : '')}
        </span>
      </div>
    </form>
  );
}
