/**
 * The run's AI summary: asked for or not, the model to ask instead of the
 * configured one, and what to focus on (the CLI's --ai, --ai-model and
 * --ai-instructions). What is sent to the provider is said before it is sent.
 */
import type { SettingsGroup } from '../api/types.js';
import { FieldError } from '../ui/notes.js';
import type { FieldId, SearchForm } from './form.js';

export type AiSettings = SettingsGroup<{ provider?: string; model?: string; summaries_enabled?: boolean }>;

type AiForm = Pick<SearchForm, 'ai' | 'aiModel' | 'aiInstructions'>;

/** Also the routine form's (its fields have the same names). */
interface Props {
  form: AiForm;
  set: (patch: Partial<AiForm>) => void;
  errors: Partial<Record<Extract<FieldId, 'ai' | 'ai_model' | 'ai_instructions'>, string[]>>;
  settings: AiSettings | undefined;
}

export function AiFields({ form, set, errors, settings }: Props) {
  const configured = settings?.settings;
  const provider = configured?.provider && configured.provider !== 'none' ? configured.provider : null;
  return (
    <fieldset class="ai-fields" aria-describedby={errors.ai?.length ? 'ai-error' : undefined}>
      <legend>AI summary</legend>
      <div class="check">
        <input id="ai" type="checkbox" checked={form.ai} onChange={(e) => set({ ai: (e.target as HTMLInputElement).checked })} aria-describedby="ai-hint" />
        <label for="ai">Write a short AI summary of what the run finds</label>
      </div>
      <p class="field-hint" id="ai-hint">
        Sends the titles, authors, years and abstracts found to{' '}
        {provider ? (
          <>
            the AI provider in svc's settings (<strong>{provider}</strong>
            {configured?.model ? `, model ${configured.model}` : ''})
          </>
        ) : (
          "the AI provider in svc's settings (none is chosen yet: the run will say so instead of writing a summary)"
        )}
        . The summary is the model's, not checked against the papers.
      </p>
      <FieldError id="ai-error" messages={errors.ai ?? []} />
      {form.ai && (
        <div class="field-row">
          <div class="field">
            <label for="ai-model">Model</label>
            <input
              id="ai-model"
              value={form.aiModel}
              placeholder={configured?.model || 'the configured model'}
              onInput={(e) => set({ aiModel: (e.target as HTMLInputElement).value })}
              aria-invalid={!!errors.ai_model?.length}
              aria-describedby="ai-model-hint ai-model-error"
            />
            <p class="field-hint" id="ai-model-hint">
              Leave empty for the model in svc's settings.
            </p>
            <FieldError id="ai-model-error" messages={errors.ai_model ?? []} />
          </div>
          <div class="field grow">
            <label for="ai-instructions">What the summary should focus on</label>
            <textarea
              id="ai-instructions"
              rows={3}
              value={form.aiInstructions}
              onInput={(e) => set({ aiInstructions: (e.target as HTMLTextAreaElement).value })}
              aria-invalid={!!errors.ai_instructions?.length}
              aria-describedby="ai-instructions-error"
            />
            <FieldError id="ai-instructions-error" messages={errors.ai_instructions ?? []} />
          </div>
        </div>
      )}
    </fieldset>
  );
}
