/**
 * The JSON of settings as the routes send it (spec 1, "Credentials, settings,
 * configurations, cloud"): a group's values with `keys`, the description of
 * each setting a door draws its form from (so no door keeps a second copy of
 * the schema), the embeddings group's lanes, the subscription-lane CLIs found
 * and the model ids a provider lists. Secrets are never settings. Declared
 * once here, for the service and the window alike; imports nothing but wire
 * files.
 */
import type { CredentialStatus } from './credentials.js';

export type SettingsGroup = 'ai' | 'email' | 'embeddings' | 'cloud' | 'storage' | 'notifications' | 'assistant' | 'execution';

/** Settings booleans are JSON booleans in reads (the spec); a nullable-string may be null. */
export type SettingValue = string | number | boolean | null;

/** A group's values by key: every key of the group, the stored value or its default. */
export type SettingsValues = Record<string, SettingValue>;

/** What a setting is, as src/settings/schema.ts declares it; a write is checked against one_of, min and max. */
export interface KeyDescription {
  type: 'string' | 'nullable-string' | 'boolean' | 'integer';
  default: SettingValue;
  /** The setting in a sentence. */
  doc: string;
  one_of?: readonly string[];
  /** Integers only. */
  min?: number;
  max?: number;
}

/** GET /api/settings/{group} of the generic groups (and embeddings): the values nested under `settings`. */
export interface GroupAnswer {
  group: SettingsGroup;
  settings: SettingsValues;
  keys: Record<string, KeyDescription>;
}

/** PUT /api/settings/{group}: the whole group after the write, and the keys ignored as outside it (the spec ignores them; naming them keeps a misspelt key from being lost). */
export interface GroupWritten extends GroupAnswer {
  ignored_keys: string[];
}

/** GET and PUT /api/settings/execution: its two values at the top level (the spec's body shape), with `keys`. */
export interface ExecutionSettings {
  /** Manual runs that may go at once; one more is refused with 429. */
  max_concurrent_executions: number;
  routine_fire_queue_limit: number;
  keys: Record<string, KeyDescription>;
}

/** An embedding lane svc knows: what it can do, what it needs, its default model and its price where it has one. */
export interface EmbeddingLane {
  id: 'none' | 'local' | 'openai' | 'ollama';
  label: string;
  can_embed: boolean;
  /** lexical: shared words and spellings; semantic: meaning (a neural model). */
  kind: 'lexical' | 'semantic' | null;
  offline: boolean;
  default_model: string | null;
  default_base_url: string | null;
  /** Credential the lane sends, when it needs one (optional for a custom OpenAI-compatible base_url). */
  credential: string | null;
  /** USD per million input tokens, by model; absent means unknown. */
  prices_per_million_tokens: Record<string, number>;
  dimension: number | null;
  note: string;
}

/** A lane as the settings read shows it: with its credential's status (null when it sends none). */
export interface EmbeddingLaneStatus extends EmbeddingLane {
  credential_status: CredentialStatus | null;
}

/** The lane the settings choose now, resolved: the provider's default model when none is set. */
export interface ActiveLane {
  /** none when the stored provider is not one svc can embed with. */
  provider: string;
  model: string | null;
  /** provider:model, the key vectors are stored under; null when the lane cannot embed. */
  model_key: string | null;
  kind: EmbeddingLane['kind'];
  semantic: boolean;
  note: string | null;
}

/** GET and PUT /api/settings/embeddings: the group, and capability metadata that is not writable. */
export interface EmbeddingsAnswer extends GroupAnswer {
  capabilities: {
    active: ActiveLane;
    providers: EmbeddingLaneStatus[];
    /** Providers named elsewhere (AI lanes) that cannot embed: a write naming one is refused, saying why. */
    cannot_embed: string[];
    keys: Record<string, KeyDescription>;
  };
}

/** One subscription-lane CLI, found or not. */
export interface CliFound {
  provider: string;
  label: string;
  /** The program svc looks for. */
  command: string;
  /** Whether svc can run this lane at all (some are listed, not yet run). */
  implemented: boolean;
  found: boolean;
  path: string | null;
  /** Where it was looked for: the program the SVC_AGENT_CLI environment variable names, or PATH. */
  source: 'SVC_AGENT_CLI' | 'PATH';
}

/** GET /api/settings/ai/cli-status. */
export interface CliStatus {
  checked_at_utc: string;
  clis: CliFound[];
}

/** POST /api/ai/models: the model ids the credential reaches, sorted; an agent CLI answers its aliases. */
export interface ModelList {
  provider: string;
  models: string[];
  source: 'agent_aliases' | 'provider_api';
  /** Agent CLIs only: whether the program was found. */
  cli_found?: boolean;
}
