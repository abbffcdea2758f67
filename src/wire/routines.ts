/**
 * The JSON of routines as the routes send it (spec 1, "Routine"; document 3,
 * get_routine): a routine with its schedule, last run, last fire, missed
 * fires and delivery summary; the answers of create, delete, activate,
 * deactivate and run now; the coverage audit; the calendar's events; and the
 * window's schedule preview (a shell action running the service's cron code).
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */
import type { DeliverySummary } from './deliveries.js';
import type { RunStatus } from './executions.js';

/** new_papers: each fire reports the person's new papers; retractions: it also checks their papers for retractions, corrections and new versions. */
export type EntityMode = 'new_papers' | 'retractions';

/** The watch profile a routine follows (a person profile only: sources search by author). */
export interface RoutineEntity {
  profile_id: number;
  mode: EntityMode;
}

/** The search a routine runs: a SweepRequest's keys, stored normalized (one spelling, `repositories`), plus a relative date window. */
export interface RoutineParameters {
  repositories: string[];
  /** Empty only for a routine that follows a watch profile: the person is the search. */
  query: string;
  keywords: string[];
  max_results: number;
  ai_enabled: boolean;
  ai_settings: Record<string, unknown> | null;
  saved_configuration_id: number | null;
  /** Each fire asks for papers published from N days before the fire to the fire's date; null: no date limit. */
  window_days: number | null;
  /** Start the window at the date of the routine's last completed run instead (window_days when there is none). */
  since_last_success: boolean;
}

/** The writable fields of a routine as stored (spec 1's table, plus entity), each read back as it runs. */
export interface RoutineValues {
  name: string;
  schedule_cron: string;
  parameters: RoutineParameters;
  ai_enabled: boolean;
  ai_settings: Record<string, unknown> | null;
  email_ai_summary_enabled: boolean;
  email_enabled: boolean;
  /** The sentence a coverage audit compares results against; never defaulted from keywords. */
  intent: string | null;
  is_active: boolean;
  notify_on_complete: boolean;
  storage_settings: Record<string, unknown> | null;
  /** null when the routine follows no watch profile. */
  entity: RoutineEntity | null;
}

/** What started a fire: the schedule, several due fires run once (coalesced), or a person (run now). */
export type FireTrigger = 'schedule' | 'coalesced' | 'manual';
/** What became of a fire: started a run, waited for a free slot, or was not run (the fire queue full, skipped, missed, dropped). */
export type FireOutcome = 'started' | 'queued' | 'overflow' | 'skipped' | 'missed' | 'dropped';

/** The schedule as the service reads it. */
export interface RoutineSchedule {
  /** The zone of the expression's CRON_TZ=, or UTC; UTC too for a stored schedule that no longer parses. */
  timezone: string;
  /** The schedule in words ("every Monday at 08:00, Europe/Berlin"). */
  sentence: string;
  /** The scheduler job's id; null for an inactive routine (it has no job). */
  job_id: string | null;
  next_run_at_utc: string | null;
  /** The next few fires from now; empty for an inactive routine or a schedule that no longer parses. */
  next_runs: string[];
  /** How late a due fire may still run once; null without a job. */
  misfire_grace_seconds: number | null;
}

/** The routine's newest run (by start); null when it never ran. */
export interface LastExecution {
  id: number;
  status: RunStatus;
  started_at_utc: string;
  finished_at_utc: string | null;
  result_count: number;
  new_count: number;
}

/** The routine's last recorded fire; null when none was recorded. */
export interface LastFire {
  trigger: FireTrigger;
  outcome: FireOutcome;
  due_at_utc: string;
  /** Due fires this one stands for (several when coalesced or missed together). */
  fire_count: number;
  execution_id: number | null;
  reason: string | null;
}

/** Fires that came due while the service was closed and did not run, recorded and still due together (spec 1). */
export interface MissedFireCount {
  count: number;
  last_due_at_utc: string | null;
}

/**
 * pending: due and not handled yet (a scheduler starting within the grace runs it once); coalesced: ran once, late;
 * missed, overflow (the fire queue was full), dropped, skipped: not run.
 */
export type MissedFireOutcome = 'pending' | 'coalesced' | Exclude<FireOutcome, 'started' | 'queued'>;

/** A span of fires off the schedule, newest first. */
export interface MissedFireDetail {
  first_due_at_utc: string;
  last_due_at_utc: string;
  count: number;
  outcome: MissedFireOutcome;
  /** Whether a run came of it (a coalesced fire that started). */
  ran: boolean;
  execution_id: number | null;
  /** false for a span computed on this read from the job (pending, or missed and not recorded yet). */
  recorded: boolean;
  recorded_at_utc: string | null;
  reason: string | null;
}

/** A routine as the list reads it (GET /api/routines). */
export interface RoutineView extends RoutineValues {
  id: number;
  created_at_utc: string;
  updated_at_utc: string;
  schedule: RoutineSchedule;
  /** The run going now; null when none is. */
  running_execution_id: number | null;
  /** When a scheduled fire started waiting for a free slot; null when none waits. */
  queued_fire_at_utc: string | null;
  last_execution: LastExecution | null;
  last_fire: LastFire | null;
  missed_fires: MissedFireCount;
  delivery_summary: DeliverySummary;
}

/** One routine (GET and PUT /api/routines/{routine_id}): the list's view plus the missed fires' details, at most 20. */
export interface RoutineDetail extends RoutineView {
  missed_fire_details: MissedFireDetail[];
}

/** GET /api/routines. */
export interface RoutineList {
  routines: RoutineView[];
  total: number;
}

/** POST /api/routines (201). */
export interface RoutineCreated {
  id: number;
  name: string;
}

/** DELETE /api/routines/{routine_id}: the routine and its job are gone; its runs and findings stay. */
export interface RoutineDeleted {
  id: number;
  deleted: true;
  job_removed: boolean;
  /** A run still going goes on and keeps what it finds, but its report is delivered nowhere. */
  running_execution_id: number | null;
}

/** POST /api/routines/{routine_id}/activate: the schedule starts again from now. */
export interface RoutineActivated {
  id: number;
  is_active: true;
  next_run_at_utc: string | null;
}

/** POST /api/routines/{routine_id}/deactivate. */
export interface RoutineDeactivated {
  id: number;
  is_active: false;
}

/** POST /api/routines/{routine_id}/run (202): the new execution, started at once. */
export interface ManualRun {
  execution_id: number;
  routine_id: number;
  status: 'running';
  /** A run of an inactive routine happens once and does not put it back on the schedule. */
  routine_active: boolean;
  /** Says so when the routine is inactive. */
  note: string | null;
  /** The publication window this run asks for (YYYY-MM-DD; null ends are open). */
  window: { date_from: string | null; date_to: string | null };
}

/** A paper of a coverage side, newest first. */
export interface CoverageExample {
  id: number;
  title: string;
  publication_date: string | null;
  doi: string | null;
  /** The sources that found it. */
  found_by: string[];
  /** The intent's words it contains. */
  matched_terms: string[];
  /** Without one it was judged on its title alone. */
  has_abstract: boolean;
}

/** One side of the audit: an exact total and one page of its papers. */
export interface CoverageSide {
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  examples: CoverageExample[];
}

/** Papers in the corpus that fit the intent, fall inside the routine's window and no run found. */
export interface MissedInCorpus extends CoverageSide {
  /** The corpus holds only what some search found: the true number can be higher. */
  lower_bound: true;
  lower_bound_reason: string;
  /** Papers that fit but have no date, left out of a windowed count. */
  undated_excluded: number;
}

/** What every coverage answer carries. */
interface CoverageBase {
  routine_id: number;
  intent: string | null;
  /** How svc judges, in words: lexical, on the local corpus, no model. */
  method: string;
}

/** The audit cannot judge: no intent sentence (an intent is never guessed from keywords), or one without content words. */
export interface CoverageNotJudged extends CoverageBase {
  judged: false;
  reason: 'no_intent' | 'intent_without_terms';
  message: string;
  off_target: null;
  missed_in_corpus: null;
}

/** The audit of the routine's results against its intent. */
export interface CoverageJudged extends CoverageBase {
  judged: true;
  /** The intent's content words. */
  terms: string[];
  /** How many of them a paper must contain to fit (all of one or two, else half). */
  terms_needed: number;
  /** The widest publication window the routine's runs asked for; null when it never ran. */
  window: { date_from: string | null; date_to: string | null } | null;
  results_total: number;
  on_target_total: number;
  off_target: CoverageSide;
  missed_in_corpus: MissedInCorpus;
  results_without_abstract: number;
  caveats: string[];
}

/** GET /api/routines/{routine_id}/coverage. */
export type Coverage = CoverageNotJudged | CoverageJudged;

/** A calendar event: a run (execution) or an upcoming fire of an active routine (routine_fire). */
export interface CalendarEvent {
  id: string;
  kind: 'execution' | 'routine_fire';
  title: string;
  start_utc: string;
  /** null for a run still going and for a fire. */
  end_utc: string | null;
  /** A run's status, or scheduled for a fire. */
  status: RunStatus | 'scheduled';
  /** On a run only. */
  execution_id?: number;
  /** The routine of a fire, or of a run (null for a run no routine started). */
  routine_id?: number | null;
}

/** GET /api/calendar/events: events of the window, by start. */
export interface CalendarAnswer {
  from_utc: string;
  to_utc: string;
  events: CalendarEvent[];
}

/** The schedule preview shell action: the cron expression and zone being typed, as the service reads them; nothing is stored. */
export interface SchedulePreview {
  /** What a routine would store as schedule_cron (CRON_TZ=<zone> in front for a zone other than UTC). */
  expression: string;
  /** null when the expression is refused. */
  sentence: string | null;
  timezone: string;
  /** The next five fires; empty when refused. */
  next_fires: string[];
  refusal: { reason: 'cron_invalid'; message: string } | null;
}
