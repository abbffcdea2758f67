/**
 * The calls the Routines pages make and the shapes they read (spec 1,
 * "Routine"; only the fields the window uses). The schedule preview is a
 * shell action: the window's shell runs the service's own cron code.
 */
import type { ProfileList } from '../../../src/wire/profiles.js';
import { api } from './client.js';
import { shellAction } from '../session.js';
import type { RunStatus } from './executions.js';
import { rememberStartedHere } from '../watch/notifications.js';

export interface RoutineParameters {
  repositories: string[];
  query: string;
  keywords: string[];
  max_results: number;
  ai_enabled: boolean;
  ai_settings: Record<string, unknown> | null;
  saved_configuration_id: number | null;
  window_days: number | null;
  since_last_success: boolean;
}

export interface MissedFireDetail {
  first_due_at_utc: string;
  last_due_at_utc: string;
  count: number;
  outcome: string;
  ran: boolean;
  execution_id: number | null;
  recorded: boolean;
  reason: string | null;
}

export interface Routine {
  id: number;
  name: string;
  schedule_cron: string;
  parameters: RoutineParameters;
  ai_enabled: boolean;
  ai_settings: Record<string, unknown> | null;
  email_ai_summary_enabled: boolean;
  email_enabled: boolean;
  intent: string | null;
  is_active: boolean;
  notify_on_complete: boolean;
  entity: { profile_id: number; mode: 'new_papers' | 'retractions' } | null;
  created_at_utc: string;
  updated_at_utc: string;
  schedule: { timezone: string; sentence: string; next_run_at_utc: string | null; next_runs: string[] };
  running_execution_id: number | null;
  queued_fire_at_utc: string | null;
  last_execution: { id: number; status: RunStatus; started_at_utc: string; finished_at_utc: string | null; result_count: number; new_count: number } | null;
  last_fire: { trigger: string; outcome: string; due_at_utc: string; execution_id: number | null; reason: string | null } | null;
  missed_fires: { count: number; last_due_at_utc: string | null };
  missed_fire_details?: MissedFireDetail[];
  delivery_summary: { enabled_target_count: number; awaiting_review: number; last_state: string | null };
}

export interface RoutineHealth {
  routine_id: number;
  quiet: boolean | null;
  quiet_reason: string;
  completed_runs: number;
  failed_runs: number;
}

export interface CoverageExample {
  id: number;
  title: string;
  publication_date: string | null;
  found_by: string[];
  matched_terms: string[];
}

export interface CoverageSide {
  total: number;
  examples: CoverageExample[];
  lower_bound?: boolean;
  lower_bound_reason?: string;
}

export interface Coverage {
  judged: boolean;
  intent: string | null;
  method: string;
  message?: string;
  reason?: string;
  terms?: string[];
  results_total?: number;
  on_target_total?: number;
  off_target: CoverageSide | null;
  missed_in_corpus: CoverageSide | null;
  caveats?: string[];
}

export interface SchedulePreview {
  expression: string;
  sentence: string | null;
  timezone: string;
  next_fires: string[];
  refusal: { reason: string; message: string } | null;
}

export interface CalendarEvent {
  kind: string;
  start_utc: string;
  routine_id?: number | null;
}

const DAY_MS = 86_400_000;

export const routines = {
  list: (signal?: AbortSignal) => api.get<{ routines: Routine[]; total: number }>('/api/routines', { signal }),
  get: (id: number, signal?: AbortSignal) => api.get<Routine>(`/api/routines/${id}`, { signal }),
  create: (body: Record<string, unknown>) => api.post<{ id: number; name: string }>('/api/routines', body),
  update: (id: number, body: Record<string, unknown>) => api.put<Routine>(`/api/routines/${id}`, body),
  remove: (id: number) => api.delete(`/api/routines/${id}`),
  activate: (id: number) => api.post(`/api/routines/${id}/activate`),
  deactivate: (id: number) => api.post(`/api/routines/${id}/deactivate`),
  /** A run started here is remembered, so its finish is notified like a search started from the window. */
  runNow: (id: number) =>
    api.post<{ execution_id: number; routine_active: boolean; note: string | null }>(`/api/routines/${id}/run`).then((run) => (rememberStartedHere(run.execution_id), run)),
  coverage: (id: number, signal?: AbortSignal) => api.get<Coverage>(`/api/routines/${id}/coverage`, { signal }),
  health: (signal?: AbortSignal) => api.get<{ routines: RoutineHealth[] }>('/api/analytics/routine-health', { signal }),
  /** The next fires of a saved routine, from the calendar (the scheduler's own computation). */
  async nextFires(id: number, n: number, signal?: AbortSignal): Promise<string[]> {
    // A year ahead holds five fires of any schedule but a yearly one; the calendar caps each routine's fires.
    const to = new Date(Date.now() + 400 * DAY_MS).toISOString();
    const answer = await api.get<{ events: CalendarEvent[] }>('/api/calendar/events', { signal, query: { from: new Date().toISOString(), to, routine_id: id } });
    return answer.events.filter((e) => e.kind === 'routine_fire').slice(0, n).map((e) => e.start_utc);
  },
  profiles: (signal?: AbortSignal) => api.get<ProfileList>('/api/profiles', { signal }),
  /** The schedule being typed, as the service reads it: a shell action, nothing stored. */
  preview: (cron: string, timezone: string) => shellAction<SchedulePreview>('schedule-preview', { cron, timezone }),
};
