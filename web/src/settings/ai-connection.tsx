/**
 * The AI group with its connections: the provider chosen among those svc
 * offers (with why one cannot run now), the model ids the provider lists for
 * the stored key (POST /api/ai/models), and whether each agent CLI is found.
 */
import { useState } from 'preact/hooks';
import { ai, type GroupAnswer, type SettingValue } from '../api/settings.js';
import { ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { GroupForm } from './group-form.js';
import { LABELS } from './labels.js';

export function AiSettings({ answer, onSaved }: { answer: GroupAnswer; onSaved: () => void }) {
  const connections = useResource((signal) => ai.connections(signal), []);
  const cli = useResource((signal) => ai.cliStatus(signal), []);
  const [draft, setDraft] = useState<Record<string, SettingValue>>(answer.settings);
  const [models, setModels] = useState<{ provider: string; models: string[] } | null>(null);
  const [modelsError, setModelsError] = useState<unknown>(null);
  const [listing, setListing] = useState(false);

  const list = connections.data?.composer_choices.connections ?? [];
  const choices = [{ value: 'none', label: 'none — AI off' }, ...list.map((c) => ({ value: c.provider, label: c.available ? c.label : `${c.label} (cannot run now)` }))];
  const provider = String(draft.provider ?? 'none');
  const chosen = list.find((c) => c.provider === provider);

  async function listModels() {
    setListing(true);
    setModelsError(null);
    try {
      const answer = await ai.models(provider, String(draft.base_url ?? ''));
      setModels({ provider, models: answer.models });
    } catch (err) {
      setModelsError(err);
    } finally {
      setListing(false);
    }
  }
  const modelTools = (
    <div class="model-tools">
      <button type="button" class="quiet" disabled={provider === 'none' || listing} onClick={listModels}>
        {listing ? 'Asking the provider…' : "List the provider's models"}
      </button>
      {models && models.provider === provider && (
        <span class="muted" role="status">
          {models.models.length ? `${models.models.length} models listed: type to pick one.` : 'The provider listed no model.'}
        </span>
      )}
      <ErrorNote error={modelsError} />
    </div>
  );
  return (
    <>
      <GroupForm
        group="ai"
        answer={answer}
        labels={LABELS.ai!}
        choices={connections.data ? { provider: choices } : {}}
        suggestions={models && models.provider === provider ? { model: models.models } : {}}
        after={{
          provider: chosen && !chosen.available && chosen.reason ? <p class="note note-warn">{chosen.reason} Keys are stored on the <a href="/sources#other-keys">Sources</a> page.</p> : null,
          model: modelTools,
        }}
        onSaved={onSaved}
        onDraft={setDraft}
      />
      <section class="card" aria-labelledby="cli-status">
        <h3 id="cli-status">Agent CLIs</h3>
        <ErrorNote error={cli.error ?? connections.error} />
        {cli.data && (
          <table>
            <thead>
              <tr>
                <th scope="col">CLI</th>
                <th scope="col">Command</th>
                <th scope="col">Found</th>
              </tr>
            </thead>
            <tbody>
              {cli.data.clis.map((c) => (
                <tr key={c.provider}>
                  <th scope="row">{c.label}</th>
                  <td>
                    <code>{c.command}</code>
                  </td>
                  <td>
                    {!c.implemented ? <span class="chip">not supported yet</span> : c.found ? <span class="chip chip-ok">found at {c.path}</span> : <span class="chip chip-warn">not found on {c.source}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
