/**
 * Deliveries as the backend answers them (spec 1 "Delivery"): a routine's
 * destinations, the deliveries of a routine or a run, and the moves a person
 * makes — release one held for review, skip one, retry one that failed, send
 * the test e-mail. No destination's secret ever comes through here: the
 * webhook signing secret is the shell's to show (session.ts shellAction).
 */
import { api } from './client.js';
import type { Delivery } from './executions.js';

export const CHANNELS = ['email', 'folder', 'webhook', 'feed'] as const;
export type Channel = (typeof CHANNELS)[number];
export const MODES = ['automatic', 'review'] as const;
export type Mode = (typeof MODES)[number];
export const STATES = ['queued', 'awaiting_review', 'delivering', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryState = (typeof STATES)[number];

export interface Target {
  id: number;
  routine_id: number;
  channel: Channel;
  enabled: boolean;
  mode: Mode;
  /** An address (email, empty: the email settings' recipient), a directory (folder, feed) or a URL (webhook). */
  target: string;
  /** Webhook destinations sign their requests with a secret of their own. */
  signed: boolean;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface DeliveryRow extends Delivery {
  execution_id: number;
  origin: 'target' | 'routine_email';
  updated_at_utc: string;
}

export interface DeliveryPage {
  routine_id: number;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  deliveries: DeliveryRow[];
}

export interface DeliverySummary {
  targets_by_channel: Record<Channel, number>;
  enabled_target_count: number;
  awaiting_review: number;
  last_state: DeliveryState | null;
  last_error: string | null;
  last_delivered_at_utc: string | null;
}

/** What the delivery pages read of a routine (GET /api/routines, /api/routines/<id>). */
export interface RoutineBrief {
  id: number;
  name: string;
  is_active: boolean;
  email_enabled: boolean;
  notify_on_complete: boolean;
  delivery_summary: DeliverySummary;
}

const targets = (routineId: number) => `/api/routines/${routineId}/delivery-targets`;

export const deliveries = {
  routines: (signal?: AbortSignal) => api.get<{ routines: RoutineBrief[]; total: number }>('/api/routines', { signal }),
  routine: (id: number, signal?: AbortSignal) => api.get<RoutineBrief>(`/api/routines/${id}`, { signal }),
  targets: (routineId: number, signal?: AbortSignal) => api.get<{ routine_id: number; targets: Target[] }>(targets(routineId), { signal }),
  addTarget: (routineId: number, body: { channel: Channel; target: string; mode: Mode; enabled: boolean }) => api.post<Target>(targets(routineId), body),
  updateTarget: (routineId: number, targetId: number, body: { enabled?: boolean; mode?: Mode; target?: string }) => api.put<Target>(`${targets(routineId)}/${targetId}`, body),
  removeTarget: (routineId: number, targetId: number) => api.delete<{ deliveries_skipped: number }>(`${targets(routineId)}/${targetId}`),
  ofRoutine: (routineId: number, query: { state?: DeliveryState; limit: number; offset: number }, signal?: AbortSignal) =>
    api.get<DeliveryPage>(`/api/routines/${routineId}/deliveries`, { query, signal }),
  deliver: (id: number) => api.post<DeliveryRow>(`/api/deliveries/${id}/deliver`),
  skip: (id: number) => api.post<DeliveryRow>(`/api/deliveries/${id}/skip`),
  retry: (id: number) => api.post<DeliveryRow>(`/api/deliveries/${id}/retry`),
  /** The test e-mail, to `to` or (empty) the recipient of the email settings. */
  testEmail: (to: string) => api.post<{ sent: true; message_id: string }>('/api/settings/email/test', to ? { to } : {}),
  report: (executionId: number, signal?: AbortSignal) => api.get<{ text: string }>(`/api/executions/${executionId}/report`, { signal }),
};
