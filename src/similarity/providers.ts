/**
 * The embedding lanes svc knows, declared once: what each can do, what it
 * needs, its default model and its price where it has one. Settings refuse a
 * provider that cannot embed; the settings read shows this table as
 * capability metadata.
 */
import type { EmbeddingLane } from '../wire/settings.js';
import { LEXICAL_DIMENSION, LEXICAL_MODEL } from './lexical.js';

/** The settings read shows this table as it is (src/wire/settings.ts declares a lane). */
export type ProviderInfo = EmbeddingLane;
export type ProviderId = EmbeddingLane['id'];

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: 'none',
    label: 'Off',
    can_embed: false,
    kind: null,
    offline: true,
    default_model: null,
    default_base_url: null,
    credential: null,
    prices_per_million_tokens: {},
    dimension: null,
    note: 'Similarity, semantic search and embedding after runs are off.',
  },
  {
    id: 'local',
    label: 'Local lexical embedding',
    can_embed: true,
    kind: 'lexical',
    offline: true,
    default_model: LEXICAL_MODEL,
    default_base_url: null,
    credential: null,
    prices_per_million_tokens: { [LEXICAL_MODEL]: 0 },
    dimension: LEXICAL_DIMENSION,
    note:
      'Hashed word and character n-grams with TF-IDF weighting, projected to 384 dimensions and L2-normalised. ' +
      'Offline, no download, free. Lexical, not semantic: it finds papers that share rare words and title spellings, not papers that say the same thing in other words.',
  },
  {
    id: 'openai',
    label: 'OpenAI-compatible embeddings API',
    can_embed: true,
    kind: 'semantic',
    offline: false,
    default_model: 'text-embedding-3-small',
    default_base_url: 'https://api.openai.com/v1',
    credential: 'openai_api_key',
    prices_per_million_tokens: { 'text-embedding-3-small': 0.02, 'text-embedding-3-large': 0.13, 'text-embedding-ada-002': 0.1 },
    dimension: null,
    note: 'POST {base_url}/embeddings. Titles and abstracts are sent to the provider. A custom base_url (a local server) may need no key.',
  },
  {
    id: 'ollama',
    label: 'Ollama',
    can_embed: true,
    kind: 'semantic',
    offline: true,
    default_model: 'nomic-embed-text',
    default_base_url: 'http://127.0.0.1:11434',
    credential: null,
    prices_per_million_tokens: {},
    dimension: null,
    note: 'POST {base_url}/api/embed on a local Ollama server (0.3 or later) with an embedding model pulled.',
  },
];

/** AI providers svc knows that have no embeddings endpoint: named so the refusal can say why. */
export const CANNOT_EMBED: Record<string, string> = {
  anthropic: 'Anthropic offers no embeddings API.',
  deepseek: 'DeepSeek offers no embeddings API.',
  xai: 'xAI offers no embeddings API.',
  groq: 'Groq offers no embeddings API.',
  openrouter: 'OpenRouter serves chat models, not embeddings.',
  claude_cli: 'A subscription CLI cannot embed.',
  agent_cli: 'A subscription CLI cannot embed.',
};

export function providerInfo(id: string): ProviderInfo | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The stored model key of a lane: vectors of different keys never mix. */
export function modelKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}
