/**
 * The assistant (spec 3): its status with the composer choices, saved
 * conversations (browse, read, create, export), a turn's event stream,
 * cancel, and the answer to a permission request a running turn holds open.
 * The answers' shapes are the service's, from src/wire/assistant.ts.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { AssistantStatus, CancelAnswer, Choices, Conversation, ConversationExport, ConversationPage, PermissionAnswer, TurnEvent } from '../../../src/wire/assistant.js';
import { api } from './client.js';
import { readEventStream } from './sse.js';

export type { Choices, ComposerChoices, Connection, Conversation, ConversationRow, Message, TurnEvent } from '../../../src/wire/assistant.js';

export const assistant = {
  status: (signal?: AbortSignal) => api.get<AssistantStatus>('/api/assistant/status', { signal }),
  browse: (q: string, beforeId?: number, throughId?: number, signal?: AbortSignal) =>
    api.get<ConversationPage>('/api/assistant/sessions/browse', {
      signal,
      query: { q, before_id: beforeId, through_id: throughId },
    }),
  create: (choices: Choices, title: string | null) => api.post<Conversation>('/api/assistant/sessions', { choices, title }),
  show: (id: number, signal?: AbortSignal) => api.get<Conversation>(`/api/assistant/sessions/${id}`, { signal }),
  /** Send one message and read the turn as it streams; aborting `signal` disconnects (the service then cancels the turn). */
  send: (id: number, text: string, onEvent: (e: TurnEvent) => void, signal: AbortSignal) =>
    readEventStream(`/api/assistant/sessions/${id}/messages`, (m: EventSourceMessage) => onEvent({ event: m.event ?? 'message', data: JSON.parse(m.data) } as TurnEvent), { signal, method: 'POST', body: { text } }),
  cancel: (id: number) => api.post<CancelAnswer>(`/api/assistant/sessions/${id}/cancel`),
  answerPermission: (requestId: string, allow: boolean, reason: string | null) => api.post<PermissionAnswer>(`/api/assistant/permissions/${encodeURIComponent(requestId)}`, { allow, reason }),
  export: (id: number, format: 'json' | 'markdown') =>
    api.get<ConversationExport>(`/api/assistant/sessions/${id}/export`, { query: { format } }),
};
