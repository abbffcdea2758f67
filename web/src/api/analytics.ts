/**
 * The analytics views as the backend answers them (GET /api/analytics/*), each
 * over the same window: the last N days of collection, or everything. The
 * page draws them; the numbers, their method and the window's bounds are the
 * service's.
 */
import { api } from './client.js';

export interface AnalyticsWindow {
  days: number | null;
  from_utc: string | null;
  to_utc: string;
  applies_to: string;
}

interface View {
  window: AnalyticsWindow;
  method: string;
}

export interface Summary extends View {
  corpus: { documents_total: number; documents_in_window: number; with_doi: number; with_abstract: number; open_access: number; retracted: number; preprints: number; undated: number };
  distinct: { sources: number; categories: number };
  executions: Record<string, number>;
  routines: { active: number; inactive: number };
  lifecycle_events: number;
}

export interface Volume extends View {
  split: 'source' | 'category';
  months: { month: string; total: number; by: Record<string, number> }[];
  series: { key: string; total: number; keys?: number }[];
  totals: { dated_papers: number; year_only_papers: number; undated_papers: number; series_keys: number };
}

export interface SourceContribution extends View {
  sources: {
    source: string;
    delivered: number;
    first_found: number;
    only_this_source: number;
    in_corpus: number;
    runs_asked: number;
    runs_not_answered: number;
    zero_reasons: Record<string, number>;
  }[];
  totals: { delivered: number; only_one_source: number; sources: number };
}

export interface KeywordContribution extends View {
  routine_id: number | null;
  keywords: { keyword: string; runs: number; papers_found: number; papers_matching: number; only_this_keyword: number }[];
  totals: { runs_considered: number; runs_with_keywords: number; papers: number; papers_matching_no_keyword: number };
}

export interface HealthRun {
  execution_id: number;
  status: string;
  started_at_utc: string;
  result_count: number;
  new_count: number;
}

export interface RoutineHealth extends View {
  routines: {
    routine_id: number;
    name: string;
    is_active: boolean;
    runs_considered: number;
    completed_runs: number;
    failed_runs: number;
    interrupted_or_cancelled_runs: number;
    new_per_run: { mean: number | null; median: number | null; last: number | null };
    quiet: boolean | null;
    quiet_reason: string;
    runs: HealthRun[];
  }[];
  totals: { routines: number; quiet: number; not_judged: number };
}

export interface LagFigures {
  papers: number;
  median_days: number | null;
  p25_days: number | null;
  p75_days: number | null;
  seen_before_publication: number;
}

export interface DiscoveryLag extends View {
  overall: LagFigures;
  buckets: { label: string; papers: number }[];
  sources: (LagFigures & { source: string })[];
  excluded: Record<string, number>;
}

export interface RoutineRef {
  id: number;
  name: string;
}

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
  routines: (signal?: AbortSignal) => api.get<{ routines: RoutineRef[] }>('/api/routines', { signal }),
};
