/**
 * The JSON of the analytics views as the routes send them (spec 1,
 * "Analytics, watchdog, lifecycle"), each over the same window: the last N
 * days of collection, or everything. Declared once here, for the service and
 * the window alike; imports nothing but wire files.
 */

/** The window a view is over: the last N days of collection, or everything. */
export interface AnalyticsWindow {
  /** null: everything ever collected. */
  days: number | null;
  from_utc: string | null;
  to_utc: string;
  applies_to: string;
}

/** What every view answers besides its numbers. */
export interface View {
  window: AnalyticsWindow;
  method: string;
}

/** GET /api/analytics/summary. */
export interface Summary extends View {
  view: 'summary';
  corpus: { documents_total: number; documents_in_window: number; with_doi: number; with_abstract: number; open_access: number; retracted: number; preprints: number; undated: number };
  distinct: { sources: number; categories: number };
  executions: Record<string, number>;
  routines: { active: number; inactive: number };
  lifecycle_events: number;
}

/** GET /api/analytics/publication-volume. */
export interface Volume extends View {
  view: 'publication-volume';
  split: 'source' | 'category';
  months: { month: string; total: number; by: Record<string, number> }[];
  series: { key: string; total: number; keys?: number }[];
  totals: { dated_papers: number; year_only_papers: number; undated_papers: number; series_keys: number };
}

/** GET /api/analytics/source-contribution. */
export interface SourceContribution extends View {
  view: 'source-contribution';
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

/** GET /api/analytics/keyword-contribution. */
export interface KeywordContribution extends View {
  view: 'keyword-contribution';
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

/** One routine's health, judged against its own history. */
export interface RoutineHealthRow {
  routine_id: number;
  name: string;
  is_active: boolean;
  runs_considered: number;
  completed_runs: number;
  failed_runs: number;
  interrupted_or_cancelled_runs: number;
  new_per_run: { mean: number | null; median: number | null; last: number | null };
  /** null: too few runs to judge (not judged yet). */
  quiet: boolean | null;
  quiet_reason: string;
  runs: HealthRun[];
}

/** GET /api/analytics/routine-health. */
export interface RoutineHealth extends View {
  view: 'routine-health';
  routines: RoutineHealthRow[];
  totals: { routines: number; quiet: number; not_judged: number };
  thresholds: { runs_per_routine: number; recent_runs: number; min_history_runs: number; min_history_mean_new: number };
}

export interface LagFigures {
  papers: number;
  median_days: number | null;
  p25_days: number | null;
  p75_days: number | null;
  seen_before_publication: number;
}

/** GET /api/analytics/discovery-lag. */
export interface DiscoveryLag extends View {
  view: 'discovery-lag';
  overall: LagFigures;
  buckets: { label: string; papers: number }[];
  sources: (LagFigures & { source: string })[];
  excluded: Record<string, number>;
}
