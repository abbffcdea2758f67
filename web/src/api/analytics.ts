/**
 * The analytics views as the backend answers them (GET /api/analytics/*), each
 * over the same window: the last N days of collection, or everything. The
 * page draws them; the numbers, their method and the window's bounds are the
 * service's, and so are their shapes (src/wire/analytics.ts).
 */
import type { DiscoveryLag, KeywordContribution, RoutineHealth, SourceContribution, Summary, Volume } from '../../../src/wire/analytics.js';
import type { RoutineList, RoutineView } from '../../../src/wire/routines.js';
import { api } from './client.js';

export type { AnalyticsWindow, DiscoveryLag, HealthRun, KeywordContribution, LagFigures, RoutineHealth, SourceContribution, Summary, Volume } from '../../../src/wire/analytics.js';

/** What the keyword view reads of a routine it can be narrowed to. */
export type RoutineRef = Pick<RoutineView, 'id' | 'name'>;

type Query = Record<string, string | number | undefined>;
const view = <T>(name: string) => (query: Query, signal?: AbortSignal) => api.get<T>(`/api/analytics/${name}`, { query, signal });

export const analytics = {
  summary: view<Summary>('summary'),
  volume: view<Volume>('publication-volume'),
  sources: view<SourceContribution>('source-contribution'),
  keywords: view<KeywordContribution>('keyword-contribution'),
  health: view<RoutineHealth>('routine-health'),
  lag: view<DiscoveryLag>('discovery-lag'),
  /** The routines keyword contribution can be narrowed to. */
  routines: (signal?: AbortSignal) => api.get<RoutineList>('/api/routines', { signal }),
};
