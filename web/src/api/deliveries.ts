/**
 * The calls the delivery pages make (spec 1 "Delivery"): a routine's
 * destinations, the deliveries of a routine, and the moves a person makes —
 * release one held for review, skip one, retry one that failed, send the test
 * e-mail. The answers' shapes are the service's, from src/wire/deliveries.ts.
 * No destination's secret ever comes through here: the webhook signing secret
 * is the shell's to show (session.ts shellAction).
 */
import type { Delivery, DeliveryChannel, DeliveryPage, DeliveryState, Target, TargetList, TargetMode, TargetRemoved, TestEmailSent } from '../../../src/wire/deliveries.js';
import type { RunReport } from '../../../src/wire/executions.js';
import type { RoutineView } from '../../../src/wire/routines.js';
import { api } from './client.js';

export type { Delivery, DeliveryChannel as Channel, DeliveryPage, DeliveryState, Target, TargetMode as Mode } from '../../../src/wire/deliveries.js';

// The lists a form or a filter offers, in the service's order: values here, so each is one of the service's.
export const CHANNELS = ['email', 'folder', 'webhook', 'feed'] as const satisfies readonly DeliveryChannel[];
export const MODES = ['automatic', 'review'] as const satisfies readonly TargetMode[];
export const STATES = ['queued', 'awaiting_review', 'delivering', 'delivered', 'failed', 'skipped'] as const satisfies readonly DeliveryState[];

/** What the delivery pages read of a routine (GET /api/routines, /api/routines/<id>): a few of its fields and its delivery summary. */
export type RoutineBrief = Pick<RoutineView, 'id' | 'name' | 'is_active' | 'email_enabled' | 'notify_on_complete' | 'delivery_summary'>;

const targets = (routineId: number) => `/api/routines/${routineId}/delivery-targets`;

export const deliveries = {
  routines: (signal?: AbortSignal) => api.get<{ routines: RoutineBrief[]; total: number }>('/api/routines', { signal }),
  routine: (id: number, signal?: AbortSignal) => api.get<RoutineBrief>(`/api/routines/${id}`, { signal }),
  targets: (routineId: number, signal?: AbortSignal) => api.get<TargetList>(targets(routineId), { signal }),
  addTarget: (routineId: number, body: { channel: DeliveryChannel; target: string; mode: TargetMode; enabled: boolean }) => api.post<Target>(targets(routineId), body),
  updateTarget: (routineId: number, targetId: number, body: { enabled?: boolean; mode?: TargetMode; target?: string }) => api.put<Target>(`${targets(routineId)}/${targetId}`, body),
  removeTarget: (routineId: number, targetId: number) => api.delete<TargetRemoved>(`${targets(routineId)}/${targetId}`),
  ofRoutine: (routineId: number, query: { state?: DeliveryState; limit: number; offset: number }, signal?: AbortSignal) =>
    api.get<DeliveryPage>(`/api/routines/${routineId}/deliveries`, { query, signal }),
  deliver: (id: number) => api.post<Delivery>(`/api/deliveries/${id}/deliver`),
  skip: (id: number) => api.post<Delivery>(`/api/deliveries/${id}/skip`),
  retry: (id: number) => api.post<Delivery>(`/api/deliveries/${id}/retry`),
  /** The test e-mail, to `to` or (empty) the recipient of the email settings. */
  testEmail: (to: string) => api.post<TestEmailSent>('/api/settings/email/test', to ? { to } : {}),
  report: (executionId: number, signal?: AbortSignal) => api.get<RunReport>(`/api/executions/${executionId}/report`, { signal }),
};
