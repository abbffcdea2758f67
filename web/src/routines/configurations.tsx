/**
 * Saved configurations on a routine's page: those a routine can run (routine
 * and sweep searches) listed, applied to this routine (its edit form opens
 * filled with them) or removed, and this routine's search saved as a new one
 * (the Search page's SaveConfiguration).
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Configuration, ConfigurationList } from '../api/types.js';
import { minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { SaveConfiguration } from '../search/configurations.js';

function Remove({ config, onRemoved }: { config: Configuration; onRemoved: () => void }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = () =>
    api.delete(`/api/configurations/${config.id}`).then(onRemoved, (err) => {
      setError(err);
      setAsking(false);
    });
  return (
    <>
      {asking ? (
        <>
          <button type="button" class="danger" onClick={remove}>
            Remove “{config.name}”
          </button>{' '}
          <button type="button" class="quiet" onClick={() => setAsking(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" class="quiet" onClick={() => setAsking(true)} aria-label={`Remove the configuration “${config.name}”`}>
          Remove
        </button>
      )}
      <ErrorNote error={error} title="The configuration was not removed." />
    </>
  );
}

export function RoutineConfigurations({ routineId, parameters, linkedId }: { routineId: number; parameters: () => Record<string, unknown>; linkedId: number | null }) {
  const list = useResource((signal) => api.get<ConfigurationList>('/api/configurations', { signal }), []);
  const usable = (list.data?.configurations ?? []).filter((c) => c.config_type === 'routine' || c.config_type === 'sweep');
  return (
    <section class="run-section" aria-labelledby="configs-title">
      <h2 id="configs-title">Saved configurations</h2>
      <ErrorNote error={list.error} title="svc could not list the saved configurations." />
      {!list.data && list.loading && <Busy />}
      {list.data && usable.length === 0 && <p class="muted">None yet. Save this routine's search below to start other routines (or sweeps) from it.</p>}
      {usable.length > 0 && (
        <ul class="config-list">
          {usable.map((c) => (
            <li key={c.id}>
              <span>
                <strong>{c.name}</strong> <span class="muted">({c.config_type}, saved {minute(c.updated_at_utc)})</span>
                {c.id === linkedId && <span class="chip">this routine's</span>}
              </span>
              <span class="config-actions">
                <a class="button quiet" href={`/routines/${routineId}/edit?config=${c.id}`} aria-label={`Apply “${c.name}” to this routine`}>
                  Apply
                </a>{' '}
                <Remove config={c} onRemoved={list.reload} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <SaveConfiguration mode="routine" label="Save this routine's search as a configuration" parameters={parameters} onSaved={list.reload} />
    </section>
  );
}
