/** Settings groups (spec 1): each read carries its values and `keys`, the description of each setting the form is drawn from. */
import { api } from './client.js';

export type SettingValue = string | number | boolean | null;

export interface KeyDescription {
  type: 'string' | 'nullable-string' | 'boolean' | 'integer';
  default: SettingValue;
  doc: string;
  one_of?: string[];
  min?: number;
  max?: number;
}

export interface GroupAnswer {
  group: string;
  settings: Record<string, SettingValue>;
  keys: Record<string, KeyDescription>;
}

export interface EmbeddingProvider {
  id: string;
  label: string;
  can_embed: boolean;
  kind: string | null;
  offline: boolean;
  default_model: string | null;
  default_base_url: string | null;
  credential: string | null;
  credential_status: string | null;
  prices_per_million_tokens: Record<string, number>;
  dimension: number | null;
  note: string;
}

export interface EmbeddingsAnswer extends GroupAnswer {
  capabilities: {
    active: { provider: string; model: string | null; model_key: string | null; kind: string | null; semantic: boolean; note: string | null };
    providers: EmbeddingProvider[];
    cannot_embed: string[];
  };
}

export interface Connection {
  runtime: 'agent_cli' | 'api_key';
  provider: string;
  label: string;
  implemented: boolean;
  available: boolean;
  reason?: string | null;
}

export interface CliStatus {
  checked_at_utc: string;
  clis: { provider: string; label: string; command: string; implemented: boolean; found: boolean; path: string | null; source: string }[];
}

export const GROUPS = ['ai', 'email', 'embeddings', 'cloud', 'storage', 'notifications', 'assistant', 'execution'] as const;
export type Group = (typeof GROUPS)[number];

/** Execution's read has its two values at the top level; the others nest them under `settings`. */
export async function readGroup(group: Group, signal?: AbortSignal): Promise<GroupAnswer> {
  if (group !== 'execution') return api.get<GroupAnswer>(`/api/settings/${group}`, { signal });
  const { keys, ...values } = await api.get<Record<string, SettingValue> & { keys: GroupAnswer['keys'] }>('/api/settings/execution', { signal });
  return { group, settings: values as Record<string, SettingValue>, keys };
}

/** Store `changes` only: execution's route takes both of its values, the others any subset. */
export async function writeGroup(group: Group, changes: Record<string, SettingValue>, current: Record<string, SettingValue>): Promise<void> {
  if (group === 'execution') await api.put('/api/settings/execution', { ...current, ...changes });
  else await api.put(`/api/settings/${group}`, { settings: changes });
}

export const ai = {
  models: (provider: string, baseUrl: string) => api.post<{ provider: string; models: string[]; source: string }>('/api/ai/models', { provider, base_url: baseUrl || null }),
  cliStatus: (signal?: AbortSignal) => api.get<CliStatus>('/api/settings/ai/cli-status', { signal }),
  connections: (signal?: AbortSignal) => api.get<{ composer_choices: { connections: Connection[] } }>('/api/assistant/status', { signal }),
};
