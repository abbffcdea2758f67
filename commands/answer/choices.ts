/**
 * The model connection `svc answer preview` asks for, from its flags, checked
 * before the server is called so that a wrong combination is a usage error
 * that names the flag (not a body field) and the values allowed. An API
 * runtime without --model asks for the provider's default model, which the
 * preview prints before anyone consents.
 */
import { choicesProblems } from '../../src/assistant/choices.js';
import { AGENT_EFFORTS, API_PROVIDERS, findApiProvider } from '../../src/providers/provider-catalog.js';
import { given, usageError } from '../lib/flags.js';

export interface AnswerChoiceFlags {
  runtime: 'agent_cli' | 'api_key';
  provider: string;
  model?: string;
  effort?: string;
}

export function choicesFromFlags(o: AnswerChoiceFlags) {
  if (o.runtime === 'agent_cli') {
    if (o.provider !== 'agent_code') throw usageError(`--runtime agent_cli takes --provider agent_code (the agent CLI), not ${given(o.provider)}.`, 'invalid_choices');
    if (o.effort !== undefined && !(AGENT_EFFORTS as readonly string[]).includes(o.effort)) throw usageError(`--effort must be one of ${AGENT_EFFORTS.join(', ')}, not ${given(o.effort)}.`, 'invalid_choices');
  } else {
    const provider = findApiProvider(o.provider);
    if (!provider) throw usageError(`--provider for --runtime api_key must be one of ${API_PROVIDERS.map((p) => p.id).join(', ')}, not ${given(o.provider)}.`, 'invalid_choices');
    if (o.effort !== undefined) throw usageError('--effort is for --runtime agent_cli only; API runtimes take no effort.', 'invalid_choices');
  }
  const model = o.model ?? (o.runtime === 'api_key' ? findApiProvider(o.provider)!.defaultModel : null);
  const choices = { version: 1 as const, runtime: o.runtime, provider: o.provider, model, effort: o.effort ?? null };
  const problems = choicesProblems(choices);
  if (problems.length) throw usageError(`${problems.map((p) => p.replace(/^choices\./, '--')).join('; ')}.`, 'invalid_choices');
  return choices;
}
