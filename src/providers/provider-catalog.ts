/**
 * The connections svc offers. Eight API providers, chosen because each has a
 * credential name in src/credentials/names.ts and speaks one of three request
 * families; one agent CLI (agent_code, the Claude Code CLI); two CLI adapters
 * listed as unavailable so a person sees why they cannot be picked.
 */
import type { RequestFamily } from './types.js';

export interface ApiProvider {
  id: string;
  label: string;
  family: RequestFamily;
  baseUrl: string;
  credential: string;
  /** The model used when neither the request nor the settings name one. */
  defaultModel: string;
}

export const API_PROVIDERS: readonly ApiProvider[] = [
  { id: 'openai', label: 'OpenAI', family: 'openai_chat', baseUrl: 'https://api.openai.com/v1', credential: 'openai_api_key', defaultModel: 'gpt-4o-mini' },
  { id: 'anthropic', label: 'Anthropic', family: 'anthropic_messages', baseUrl: 'https://api.anthropic.com/v1', credential: 'anthropic_api_key', defaultModel: 'claude-3-5-haiku-latest' },
  { id: 'gemini', label: 'Google Gemini', family: 'gemini_generate_content', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', credential: 'gemini_api_key', defaultModel: 'gemini-2.0-flash' },
  { id: 'mistral', label: 'Mistral', family: 'openai_chat', baseUrl: 'https://api.mistral.ai/v1', credential: 'mistral_api_key', defaultModel: 'mistral-small-latest' },
  { id: 'groq', label: 'Groq', family: 'openai_chat', baseUrl: 'https://api.groq.com/openai/v1', credential: 'groq_api_key', defaultModel: 'llama-3.3-70b-versatile' },
  { id: 'openrouter', label: 'OpenRouter', family: 'openai_chat', baseUrl: 'https://openrouter.ai/api/v1', credential: 'openrouter_api_key', defaultModel: 'openrouter/auto' },
  { id: 'deepseek', label: 'DeepSeek', family: 'openai_chat', baseUrl: 'https://api.deepseek.com/v1', credential: 'deepseek_api_key', defaultModel: 'deepseek-chat' },
  { id: 'xai', label: 'xAI', family: 'openai_chat', baseUrl: 'https://api.x.ai/v1', credential: 'xai_api_key', defaultModel: 'grok-2-latest' },
];

export interface CliProvider {
  id: string;
  label: string;
  /** Executable name looked up on PATH. */
  binary: string;
  implemented: boolean;
}

/** agent_code is the one implemented CLI lane; the other two are shown as unavailable adapters. */
export const CLI_PROVIDERS: readonly CliProvider[] = [
  { id: 'agent_code', label: 'Claude Code CLI (your subscription)', binary: 'claude', implemented: true },
  { id: 'agent_codex', label: 'Codex CLI', binary: 'codex', implemented: false },
  { id: 'agent_gemini', label: 'Gemini CLI', binary: 'gemini', implemented: false },
];

export const AGENT_ALIASES = ['default', 'sonnet', 'opus', 'haiku'] as const;
export const AGENT_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

export function findApiProvider(id: string): ApiProvider | undefined {
  return API_PROVIDERS.find((p) => p.id === id);
}

export function findCliProvider(id: string): CliProvider | undefined {
  return CLI_PROVIDERS.find((p) => p.id === id);
}

/** The API provider a credential name belongs to (openai_api_key → openai). */
export function providerForCredential(name: string): ApiProvider | undefined {
  return API_PROVIDERS.find((p) => p.credential === name);
}
