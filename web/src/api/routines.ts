/**
 * The calls the Routines pages make (spec 1, "Routine"). The answers' shapes
 * are the service's, from src/wire/routines.ts (a routine's health from
 * src/wire/analytics.ts). The schedule preview is a shell action: the
 * window's shell runs the service's own cron code.
 */
import type { RoutineHealth } from '../../../src/wire/analytics.js';
import type { ProfileList } from '../../../src/wire/profiles.js';
import type { CalendarAnswer, Coverage, ManualRun, RoutineActivated, RoutineCreated, RoutineDeactivated, RoutineDeleted, RoutineDetail, RoutineList, SchedulePreview } from '../../../src/wire/routines.js';
import { api } from './client.js';
import { shellAction } from '../session.js';
import { rememberStartedHere } from '../watch/notifications.js';

export type { RoutineHealthRow } from '../../../src/wire/analytics.js';
export type {
  CalendarEvent,
  Coverage,
  CoverageExample,
  CoverageSide,
  MissedFireDetail,
  MissedFireOutcome,
  MissedInCorpus,
  RoutineDetail,
  RoutineParameters,
  RoutineView,
  SchedulePreview,
} from '../../../src/wire/routines.js';

const DAY_MS = 86_400_000;

export const routines = {
  list: (signal?: AbortSignal) => api.get<RoutineList>('/api/routines', { signal }),
  get: (id: number, signal?: AbortSignal) => api.get<RoutineDetail>(`/api/routines/${id}`, { signal }),
  create: (body: Record<string, unknown>) => api.post<RoutineCreated>('/api/routines', body),
  update: (id: number, body: Record<string, unknown>) => api.put<RoutineDetail>(`/api/routines/${id}`, body),
  remove: (id: number) => api.delete<RoutineDeleted>(`/api/routines/${id}`),
  activate: (id: number) => api.post<RoutineActivated>(`/api/routines/${id}/activate`),
  deactivate: (id: number) => api.post<RoutineDeactivated>(`/api/routines/${id}/deactivate`),
  /** A run started here is remembered, so its finish is notified like a search started from the window. */
  runNow: (id: number) =>
    api.post<ManualRun>(`/api/routines/${id}/run`).then((run) => (rememberStartedHere(run.execution_id), run)),
  coverage: (id: number, signal?: AbortSignal) => api.get<Coverage>(`/api/routines/${id}/coverage`, { signal }),
  health: (signal?: AbortSignal) => api.get<RoutineHealth>('/api/analytics/routine-health', { signal }),
  /** The next fires of a saved routine, from the calendar (the scheduler's own computation). */
  async nextFires(id: number, n: number, signal?: AbortSignal): Promise<string[]> {
    // A year ahead holds five fires of any schedule but a yearly one; the calendar caps each routine's fires.
    const to = new Date(Date.now() + 400 * DAY_MS).toISOString();
    const answer = await api.get<CalendarAnswer>('/api/calendar/events', { signal, query: { from: new Date().toISOString(), to, routine_id: id } });
    return answer.events.filter((e) => e.kind === 'routine_fire').slice(0, n).map((e) => e.start_utc);
  },
  profiles: (signal?: AbortSignal) => api.get<ProfileList>('/api/profiles', { signal }),
  /** The schedule being typed, as the service reads it: a shell action, nothing stored. */
  preview: (cron: string, timezone: string) => shellAction<SchedulePreview>('schedule-preview', { cron, timezone }),
};
