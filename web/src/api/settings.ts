/**
 * Settings groups (spec 1): each read carries its values and `keys`, the
 * description of each setting the form is drawn from. The answers' shapes are
 * the service's, from src/wire/settings.ts (and the assistant status's
 * connections from src/wire/assistant.ts).
 */
import type { AssistantStatus } from '../../../src/wire/assistant.js';
import type { CliStatus, ExecutionSettings, GroupAnswer, ModelList, SettingsGroup, SettingValue } from '../../../src/wire/settings.js';
import { api } from './client.js';

export type { EmbeddingsAnswer, GroupAnswer, KeyDescription, SettingValue } from '../../../src/wire/settings.js';

/** The groups in the order the Settings page shows them. */
export const GROUPS = ['ai', 'email', 'embeddings', 'cloud', 'storage', 'notifications', 'assistant', 'execution'] as const satisfies readonly SettingsGroup[];
export type Group = (typeof GROUPS)[number];

/** Execution's read has its two values at the top level; the others nest them under `settings`. */
export async function readGroup(group: Group, signal?: AbortSignal): Promise<GroupAnswer> {
  if (group !== 'execution') return api.get<GroupAnswer>(`/api/settings/${group}`, { signal });
  const { keys, ...values } = await api.get<ExecutionSettings>('/api/settings/execution', { signal });
  return { group, settings: values, keys };
}

/** Store `changes` only: execution's route takes both of its values, the others any subset. */
export async function writeGroup(group: Group, changes: Record<string, SettingValue>, current: Record<string, SettingValue>): Promise<void> {
  if (group === 'execution') await api.put('/api/settings/execution', { ...current, ...changes });
  else await api.put(`/api/settings/${group}`, { settings: changes });
}

export const ai = {
  models: (provider: string, baseUrl: string) => api.post<ModelList>('/api/ai/models', { provider, base_url: baseUrl || null }),
  cliStatus: (signal?: AbortSignal) => api.get<CliStatus>('/api/settings/ai/cli-status', { signal }),
  connections: (signal?: AbortSignal) => api.get<AssistantStatus>('/api/assistant/status', { signal }),
};
