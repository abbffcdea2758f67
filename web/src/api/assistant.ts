/**
 * The assistant (spec 3): its status with the composer choices, saved
 * conversations (browse, read, create, export), a turn's event stream,
 * cancel, and the answer to a permission request a running turn holds open.
 * The status's shapes are the service's, from src/wire/assistant.ts.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { AssistantStatus, Choices } from '../../../src/wire/assistant.js';
import { api } from './client.js';
import { readEventStream } from './sse.js';

export type { Choices, ComposerChoices, Connection } from '../../../src/wire/assistant.js';

export interface ConversationRow {
  id: number;
  display_title: string;
  runtime: string | null;
  model: string | null;
  updated_at_utc: string;
  message_count: number;
  choices: (Choices & { created_at_utc: string }) | { unreadable: true } | null;
}

export interface ToolField {
  data: unknown;
  unreadable: boolean;
}

export interface Message {
  id: number;
  role: 'user' | 'assistant' | 'tool' | string;
  content: string;
  created_at_utc: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  tool_calls: ToolField;
  tool_results: ToolField;
}

export interface ModelReport {
  sequence: number;
  model: string;
  source: string;
  observed_at_utc: string;
}

export interface Conversation {
  session: { id: number; display_title: string; created_at_utc: string };
  messages: Message[];
  running: boolean;
  choices: ConversationRow['choices'];
  turn_choices: { user_message_id: number; assistant_message_id: number | null; requested: Choices; reports: ModelReport[] }[];
}

export interface TurnEvent {
  event: string;
  data: Record<string, unknown>;
}

export const assistant = {
  status: (signal?: AbortSignal) => api.get<AssistantStatus>('/api/assistant/status', { signal }),
  browse: (q: string, beforeId?: number, throughId?: number, signal?: AbortSignal) =>
    api.get<{ sessions: ConversationRow[]; through_id: number; next_before_id: number | null; has_more: boolean }>('/api/assistant/sessions/browse', {
      signal,
      query: { q, before_id: beforeId, through_id: throughId },
    }),
  create: (choices: Choices, title: string | null) => api.post<Conversation>('/api/assistant/sessions', { choices, title }),
  show: (id: number, signal?: AbortSignal) => api.get<Conversation>(`/api/assistant/sessions/${id}`, { signal }),
  /** Send one message and read the turn as it streams; aborting `signal` disconnects (the service then cancels the turn). */
  send: (id: number, text: string, onEvent: (e: TurnEvent) => void, signal: AbortSignal) =>
    readEventStream(`/api/assistant/sessions/${id}/messages`, (m: EventSourceMessage) => onEvent({ event: m.event ?? 'message', data: JSON.parse(m.data) }), { signal, method: 'POST', body: { text } }),
  cancel: (id: number) => api.post<{ outcome: string; message?: string }>(`/api/assistant/sessions/${id}/cancel`),
  answerPermission: (requestId: string, allow: boolean, reason: string | null) => api.post(`/api/assistant/permissions/${encodeURIComponent(requestId)}`, { allow, reason }),
  export: (id: number, format: 'json' | 'markdown') =>
    api.get<{ filename: string; content_type: string; text: string }>(`/api/assistant/sessions/${id}/export`, { query: { format } }),
};
