/**
 * Composer choices: the complete object a conversation is bound to (no extra
 * or missing fields, no coercion), and the defaults captured when creation
 * names none.
 */
import { badRequest } from '../errors.js';
import { modelProblem } from '../providers/model-name.js';
import { AGENT_EFFORTS, findApiProvider } from '../providers/provider-catalog.js';
import type { Context } from '../context.js';
import type { ChoiceBasis, Choices } from '../wire/assistant.js';

export type { ChoiceBasis, Choices } from '../wire/assistant.js';

const KEYS = ['version', 'runtime', 'provider', 'model', 'effort'];

/** Every reason `input` is not a complete choices object (empty when it is one). */
export function choicesProblems(input: unknown): string[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return ['choices must be an object'];
  const obj = input as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(obj)) if (!KEYS.includes(key)) problems.push(`choices has an unknown field "${key.slice(0, 40)}"`);
  for (const key of KEYS) if (!(key in obj)) problems.push(`choices.${key} is missing`);
  if ('version' in obj && obj.version !== 1) problems.push('choices.version must be 1');
  if ('runtime' in obj && obj.runtime !== 'agent_cli' && obj.runtime !== 'api_key') problems.push('choices.runtime must be agent_cli or api_key');
  if (obj.runtime === 'agent_cli') {
    if ('provider' in obj && obj.provider !== 'agent_code') problems.push('choices.provider must be agent_code for the agent_cli runtime');
    if ('model' in obj && obj.model !== null && modelProblem(obj.model)) problems.push(`choices.${modelProblem(obj.model)}`);
    if ('effort' in obj && obj.effort !== null && !(AGENT_EFFORTS as readonly unknown[]).includes(obj.effort)) {
      problems.push(`choices.effort must be null or one of ${AGENT_EFFORTS.join(', ')}`);
    }
  } else if (obj.runtime === 'api_key') {
    if ('provider' in obj && (typeof obj.provider !== 'string' || !findApiProvider(obj.provider))) problems.push('choices.provider is not an offered API provider');
    if ('model' in obj && modelProblem(obj.model)) problems.push(`choices.${obj.model === null ? 'model must be a string for the api_key runtime' : modelProblem(obj.model)}`);
    if ('effort' in obj && obj.effort !== null) problems.push('choices.effort must be null for the api_key runtime');
  }
  return problems;
}

/** A complete choices object, or 400 invalid_choices naming every problem. */
export function requireChoices(input: unknown): Choices {
  const problems = choicesProblems(input);
  if (problems.length) throw badRequest('invalid_choices', `Invalid choices: ${problems.join('; ')}.`, { problems });
  return input as Choices;
}

export type DefaultChoices = { ok: true; choices: Choices; basis: ChoiceBasis } | { ok: false; error: string };

/** What a creation without choices captures from the current settings. */
export function defaultChoices(ctx: Context): DefaultChoices {
  const s = ctx.settings.read('assistant');
  const ai = ctx.settings.read('ai');
  const settingsModel = typeof s.assistant_model === 'string' && s.assistant_model !== '' ? s.assistant_model : null;
  if (settingsModel !== null && modelProblem(settingsModel)) return { ok: false, error: `The default model in the assistant settings is not usable: ${modelProblem(settingsModel)}.` };
  if (s.assistant_runtime === 'api_key') {
    const provider = typeof ai.provider === 'string' ? findApiProvider(ai.provider) : undefined;
    if (!provider) return { ok: false, error: 'No API provider is chosen: set ai.provider to one of the offered providers, or pick a connection explicitly.' };
    const aiModel = typeof ai.model === 'string' && ai.model !== '' && !modelProblem(ai.model) ? ai.model : null;
    const model = settingsModel ?? aiModel;
    return {
      ok: true,
      choices: { version: 1, runtime: 'api_key', provider: provider.id, model: model ?? provider.defaultModel, effort: null },
      basis: { model_basis: model ? 'settings_default' : 'runtime_default', effort_basis: 'not_supported' },
    };
  }
  const effort = typeof s.assistant_effort === 'string' ? s.assistant_effort : null;
  return {
    ok: true,
    choices: { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: settingsModel, effort },
    basis: { model_basis: settingsModel ? 'settings_default' : 'runtime_default', effort_basis: effort ? 'settings_default' : 'runtime_default' },
  };
}

export function explicitBasis(choices: Choices): ChoiceBasis {
  return { model_basis: 'explicit', effort_basis: choices.runtime === 'api_key' ? 'not_supported' : 'explicit' };
}
