/**
 * Connection, model and effort from the service's composer choices (spec 3,
 * GET /api/assistant/status): every connection is listed, the unavailable
 * ones disabled with the service's reason beside them; effort only where the
 * connection supports it. Shared by the assistant's new conversation and the
 * selected-answer page, which send the same choices object.
 */
import type { Choices, ComposerChoices, Connection } from '../api/assistant.js';
import { FieldError } from '../ui/notes.js';

export const connectionKey = (c: { runtime: string; provider: string }) => `${c.runtime}:${c.provider}`;

/** The first choices to show: the service's default when it can run, else the first connection that can. */
export function initialChoices(composer: ComposerChoices): Choices {
  const usable = (c: { runtime: string; provider: string }) => composer.connections.find((x) => connectionKey(x) === connectionKey(c))?.available;
  if (composer.default_request && usable(composer.default_request)) return composer.default_request;
  const first = composer.connections.find((c) => c.available) ?? composer.connections[0]!;
  return { version: 1, runtime: first.runtime, provider: first.provider, model: composer.default_request?.model ?? null, effort: null };
}

const label = (c: Connection) => `${c.label}${c.runtime === 'agent_cli' ? ' (agent CLI)' : ' (API key)'}${c.available ? '' : ' — unavailable'}`;

export function ChoicesPicker({ id, composer, value, onChange, errors = {} }: { id: string; composer: ComposerChoices; value: Choices; onChange: (c: Choices) => void; errors?: Record<'connection' | 'model' | 'effort', string[]> | Record<string, never> }) {
  const current = composer.connections.find((c) => connectionKey(c) === connectionKey(value));
  const unavailable = composer.connections.filter((c) => !c.available);
  const pick = (key: string) => {
    const c = composer.connections.find((x) => connectionKey(x) === key)!;
    onChange({ ...value, runtime: c.runtime, provider: c.provider, effort: c.effort_support.supported ? value.effort : null });
  };
  const err = (k: 'connection' | 'model' | 'effort') => (errors as Record<string, string[]>)[k] ?? [];
  return (
    <div class="choices-picker">
      <div class="field">
        <label for={`${id}-connection`}>Connection</label>
        <select id={`${id}-connection`} value={connectionKey(value)} onChange={(e) => pick((e.target as HTMLSelectElement).value)} aria-describedby={`${id}-connection-error`}>
          {composer.connections.map((c) => (
            <option key={connectionKey(c)} value={connectionKey(c)} disabled={!c.available}>
              {label(c)}
            </option>
          ))}
        </select>
        <FieldError id={`${id}-connection-error`} messages={err('connection')} />
      </div>
      <div class="field">
        <label for={`${id}-model`}>Model</label>
        <input
          id={`${id}-model`}
          list={value.runtime === 'agent_cli' ? `${id}-aliases` : undefined}
          value={value.model ?? ''}
          placeholder={value.runtime === 'agent_cli' ? "the agent's default" : 'a model id of this provider'}
          onInput={(e) => onChange({ ...value, model: (e.target as HTMLInputElement).value || null })}
          aria-describedby={`${id}-model-error`}
        />
        <datalist id={`${id}-aliases`}>
          {composer.agent_aliases.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <FieldError id={`${id}-model-error`} messages={err('model')} />
      </div>
      <div class="field">
        <label for={`${id}-effort`}>Effort</label>
        <select
          id={`${id}-effort`}
          value={value.effort ?? ''}
          disabled={!current?.effort_support.supported}
          onChange={(e) => onChange({ ...value, effort: (e.target as HTMLSelectElement).value || null })}
          aria-describedby={`${id}-effort-note ${id}-effort-error`}
        >
          <option value="">{current?.effort_support.supported ? "the agent's default" : 'not supported'}</option>
          {(current?.effort_support.values ?? []).map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
        {!current?.effort_support.supported && (
          <p class="muted small" id={`${id}-effort-note`}>
            This connection takes no effort setting.
          </p>
        )}
        <FieldError id={`${id}-effort-error`} messages={err('effort')} />
      </div>
      {unavailable.length > 0 && (
        <details class="unavailable-connections">
          <summary>Why {unavailable.length === 1 ? 'one connection is' : `${unavailable.length} connections are`} unavailable</summary>
          <ul>
            {unavailable.map((c) => (
              <li key={connectionKey(c)}>
                <strong>{c.label}</strong>: {c.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
