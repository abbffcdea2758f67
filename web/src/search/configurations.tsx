/**
 * Saved configurations on the Search page: start from one (the CLI's
 * --config: its fields fill the form, anything changed overrides it and the
 * run is linked to it), or save the form as a new one.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Configuration, ConfigurationCreated } from '../api/types.js';
import { ErrorNote, FieldError } from '../ui/notes.js';
import { formFromParameters, type Mode, type SearchForm } from './form.js';

const RUN_TYPES = ['dive', 'sweep'];

export function ConfigurationPicker({ list, form, onPick, errors }: { list: Configuration[]; form: SearchForm; onPick: (form: SearchForm) => void; errors: string[] }) {
  const runs = list.filter((c) => RUN_TYPES.includes(c.config_type));
  if (runs.length === 0 && form.configId === null) return null;
  const pick = (value: string) => {
    const config = runs.find((c) => String(c.id) === value);
    if (config) onPick(formFromParameters(config.config_type as Mode, config.parameters, config.id));
    else onPick({ ...form, configId: null });
  };
  return (
    <div class="field">
      <label for="config">Start from a saved configuration</label>
      <select id="config" value={form.configId === null ? '' : String(form.configId)} onChange={(e) => pick((e.target as HTMLSelectElement).value)} aria-describedby="config-hint config-error">
        <option value="">None</option>
        {runs.map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.name} ({c.config_type}
            {c.execution_count ? `, ${c.execution_count} runs` : ''})
          </option>
        ))}
      </select>
      <p class="field-hint" id="config-hint">
        Its fields fill the form; what you change overrides them, and the run is linked to the configuration.
      </p>
      <FieldError id="config-error" messages={errors} />
    </div>
  );
}

/** Save what the form holds (not the one-submission request id) as a named configuration. */
export function SaveConfiguration({ mode, parameters, onSaved, label = 'Save this search as a configuration' }: { mode: Mode | 'routine'; label?: string; parameters: () => Record<string, unknown>; onSaved: (id: number) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    try {
      const created = await api.post<ConfigurationCreated>('/api/configurations', { name, config_type: mode, parameters: parameters() });
      setSaved(created.name);
      setName('');
      onSaved(created.id);
    } catch (err) {
      setError(err);
    }
  }
  const items = error instanceof ApiError ? error.items : [];
  const nameErrors = items.filter((i) => i.loc[1] === 'name').map((i) => i.msg);
  const otherErrors = items.filter((i) => i.loc[1] !== 'name').map((i) => `${i.loc.slice(2).join('.') || 'parameters'}: ${i.msg}`);
  return (
    <details class="save-config">
      <summary>{label}</summary>
      <form class="inline-form" onSubmit={save} noValidate>
        <label for="config-name">Name</label>
        <input id="config-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} aria-invalid={nameErrors.length > 0} aria-describedby="config-name-error" />
        <button type="submit" class="quiet" disabled={!name.trim()}>
          Save
        </button>
        <FieldError id="config-name-error" messages={nameErrors} />
        {otherErrors.length > 0 && <FieldError id="config-parameters-error" messages={otherErrors} />}
        {items.length === 0 && <ErrorNote error={error} title="The configuration was not saved." />}
        {saved && (
          <p class="note note-ok" role="status">
            Saved as “{saved}”.
          </p>
        )}
      </form>
    </details>
  );
}
