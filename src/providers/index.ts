/**
 * Provider connections, reusable by any area (the assistant, selected
 * answers): pick a lane by request family and stream, list models or check a
 * key. Nothing here reads settings, credentials or the environment: callers
 * pass base URL, key and fetch in.
 */
import { streamAnthropicMessages, listAnthropicModels } from './anthropic-messages.js';
import { streamGemini, listGeminiModels } from './gemini.js';
import { streamOpenAiChat, listOpenAiModels } from './openai-chat.js';
import { UpstreamError } from './errors.js';
import type { ChatRequest, ModelsRequest, ProviderEvent, RequestFamily } from './types.js';

export * from './types.js';
export { API_PROVIDERS, CLI_PROVIDERS, AGENT_ALIASES, AGENT_EFFORTS, findApiProvider, findCliProvider, providerForCredential } from './provider-catalog.js';
export { scrub, UpstreamError } from './errors.js';
export { runAgentCli, buildAgentArgs, EFFORT_THINKING_TOKENS, type Spawner } from './agent-cli.js';

/** Stream one response of `family`; `label` names the provider in error messages. */
export function streamChat(family: RequestFamily, req: ChatRequest, label?: string): AsyncGenerator<ProviderEvent> {
  switch (family) {
    case 'openai_chat':
      return streamOpenAiChat(req, label);
    case 'anthropic_messages':
      return streamAnthropicMessages(req, label);
    case 'gemini_generate_content':
      return streamGemini(req, label);
  }
}

/** Model ids the key can reach (the family's models endpoint). */
export function listModels(family: RequestFamily, req: ModelsRequest, label?: string): Promise<string[]> {
  switch (family) {
    case 'openai_chat':
      return listOpenAiModels(req, label);
    case 'anthropic_messages':
      return listAnthropicModels(req, label);
    case 'gemini_generate_content':
      return listGeminiModels(req, label);
  }
}

export type KeyCheck = { valid: true; models: string[] } | { valid: false; kind: UpstreamError['kind']; message: string };

/**
 * Check a key against the cheapest authenticated endpoint of its family (the
 * models list: no tokens spent). A refusal is an answer, not an error.
 */
export async function checkKey(family: RequestFamily, req: ModelsRequest, label?: string): Promise<KeyCheck> {
  try {
    const models = await listModels(family, req, label);
    // The list is the answer anyway: given back (each id once, sorted) so a check can show what the key reaches.
    return { valid: true, models: [...new Set(models)].sort() };
  } catch (err) {
    if (err instanceof UpstreamError) return { valid: false, kind: err.kind, message: err.message };
    throw err;
  }
}
