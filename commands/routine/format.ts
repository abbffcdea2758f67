/** Human views of routines, jobs and coverage for `svc routine`. */
import { describeHolder } from '../../src/scheduler/scheduler.js';
import { nothingReason } from '../../src/executions/zero-reasons.js';
import type { routineCoverage } from '../../src/routines/coverage.js';
import type { schedulerJobs } from '../../src/routines/jobs-view.js';
import { utcMinute, zoneMinute } from '../lib/dates.js';
import { table } from '../lib/io.js';
import { clip, count, oneLine } from '../lib/words.js';
import { MODE_MEANING } from '../../src/routines/entity.js';
import type { RoutineDetail, RoutineView } from '../../src/wire/routines.js';

type Routine = RoutineView | RoutineDetail;
/** The watch profile a routine follows, looked up by the command (routines/entity.ts followedProfile). */
export type Followed = { id: number; name: string } | null;

/** "Jane Doe (watch profile 3), mode retractions", or null for a routine that follows nobody. */
export function followText(r: Pick<Routine, 'entity'>, followed: Followed): string | null {
  if (!r.entity) return null;
  const who = followed ? `${followed.name} (watch profile ${followed.id})` : `watch profile ${r.entity.profile_id} (no longer there)`;
  return `${who}, mode ${r.entity.mode}`;
}
const when = (iso: string | null | undefined) => utcMinute(iso);

/** A fire time as a person reads it: the UTC instant, plus the routine's own zone (CRON_TZ) when it has one. */
export function fireTime(d: Date, timezone: string | null): string {
  const utc = `${utcMinute(d.toISOString())} UTC`;
  if (!timezone || timezone === 'UTC') return utc;
  return `${utc} (${zoneMinute(d, timezone)} ${timezone})`;
}

export function routineTable(routines: Routine[], followedOf: (r: Routine) => Followed = () => null): string {
  if (routines.length === 0) return 'No routines yet; add one with `svc routine add`.';
  // The FOLLOWS column only when some routine follows a profile.
  const follows = routines.some((r) => r.entity);
  const name = (r: Routine) => (follows ? [r.name, followText(r, followedOf(r)) ?? '-'] : [r.name]);
  return table([
    ['ID', 'ACTIVE', 'SCHEDULE', 'NEXT RUN (UTC)', 'MISSED', 'NAME', ...(follows ? ['FOLLOWS'] : [])],
    ...routines.map((r) => [String(r.id), r.is_active ? 'yes' : 'no', r.schedule_cron, `${when(r.schedule.next_run_at_utc)}${overdue(r) ? ' (overdue)' : ''}`, String(r.missed_fires.count), ...name(r)]),
  ]);
}

/** The job's next run is before the first fire still to come: it came due and no scheduler has handled it. */
function overdue(r: Routine): boolean {
  const next = r.schedule.next_run_at_utc;
  const upcoming = r.schedule.next_runs[0];
  return next !== null && upcoming !== undefined && Date.parse(next) < Date.parse(upcoming);
}

/** Whether runs ask for an AI summary, with what focus, and whether the email carries it. */
function aiWords(r: Routine): string {
  if (!r.ai_enabled && !r.parameters.ai_enabled) return 'off';
  const instructions = (r.ai_settings as { instructions?: unknown } | null)?.instructions;
  const focus = typeof instructions === 'string' ? `; focus "${clip(instructions, 80)}"` : '';
  return `on${focus}; ${r.email_ai_summary_enabled ? 'in the email digest' : 'not in the email (--email-ai-summary)'}`;
}

/** The last run's sources that gave nothing for a reason other than an empty answer ("crossref (upstream_failure)"). */
function silentSources(sources: LastRunSource[] | undefined): string {
  const silent = (sources ?? []).filter((s) => s.record_count === 0 && s.zero_reason !== 'answered_empty');
  return silent.length ? `; nothing from ${silent.map((s) => `${s.source} (${nothingReason(s.zero_reason, s.status)})`).join(', ')}` : '';
}

/** A source's answer in the last run, as the detail view names the silent ones. */
export type LastRunSource = { source: string; record_count: number; zero_reason: string | null; status: string | null };

export function routineDetail(r: Routine, followed: Followed = null, lastRunSources?: LastRunSource[]): string {
  const p = r.parameters;
  const window = p.since_last_success ? `since the last completed run${p.window_days ? ` (else ${p.window_days} days)` : ''}` : p.window_days ? `last ${p.window_days} days` : 'no date limit';
  const lines = [
    `Routine ${r.id}: ${r.name} (${r.is_active ? 'active' : 'inactive'})`,
    `  schedule   ${r.schedule_cron}  [${r.schedule.timezone}]`,
    `  next fires ${r.schedule.next_runs.length ? r.schedule.next_runs.map((t) => fireTime(new Date(t), r.schedule.timezone)).join(', ') : '-'}`,
    `  search     ${p.query || !r.entity ? `"${p.query}"` : 'everything by the followed person'} on ${p.repositories.join(', ')}${p.keywords.length ? `; keywords ${p.keywords.join(', ')}` : ''}; up to ${p.max_results} per source; ${window}`,
    ...(r.entity ? [`  follows    ${followText(r, followed)}: ${MODE_MEANING[r.entity.mode]}`] : []),
    `  intent     ${r.intent ?? '(none: the coverage audit cannot judge)'}`,
    `  ai summary ${aiWords(r)}`,
    `  last run   ${r.last_execution ? `execution ${r.last_execution.id} ${r.last_execution.status}, ${count(r.last_execution.result_count, 'result')} (${r.last_execution.new_count} new)${silentSources(lastRunSources)}` : '-'}`,
  ];
  if (overdue(r)) lines.push(`  overdue    a fire came due ${when(r.schedule.next_run_at_utc)} UTC and no scheduler has run it yet (\`svc routine jobs\` says which process schedules)`);
  if (r.running_execution_id) lines.push(`  running    execution ${r.running_execution_id}`);
  lines.push(`  missed     ${count(r.missed_fires.count, 'fire')}${r.missed_fires.last_due_at_utc ? `, last due ${when(r.missed_fires.last_due_at_utc)}` : ''}`);
  for (const d of 'missed_fire_details' in r && r.missed_fire_details ? r.missed_fire_details : []) {
    lines.push(`    ${when(d.last_due_at_utc)}  ${d.outcome}${d.count > 1 ? ` ×${d.count}` : ''}${d.execution_id ? ` (execution ${d.execution_id})` : ''}${d.reason ? ` — ${d.reason}` : ''}`);
  }
  // Stored text may come from HTTP or MCP with line breaks or escape sequences: each line stays one line.
  return lines.map(oneLine).join('\n');
}

export function jobsTable(view: ReturnType<typeof schedulerJobs>): string {
  const held = view.scheduler.held_by;
  const who =
    view.scheduler.state === 'running' ? '' : held ? `; routines are fired by ${describeHolder(held)}` : view.scheduler.state === 'not_in_this_process' ? '; no svc server or daemon of this data directory is scheduling: nothing fires until one runs (`svc serve` or `svc daemon start`)' : '';
  const head = `Scheduler: ${view.scheduler.state.replace(/_/g, ' ')}${who}; misfire grace ${view.scheduler.misfire_grace_seconds} s.`;
  if (view.jobs.length === 0) return `${head}\nNo scheduled jobs.`;
  return `${head}\n${table([
    ['JOB', 'ROUTINE', 'SCHEDULE', 'NEXT RUN (UTC)', 'LAST FIRE'],
    ...view.jobs.map((j) => [j.id, `${j.routine_id} ${j.routine_name ?? '?'}`, j.schedule_cron, `${when(j.next_run_at_utc)}${j.overdue ? ' (overdue)' : ''}`, j.last_fire ? `${j.last_fire.outcome} ${when(j.last_fire.due_at_utc)}` : '-'])])}`;
}

export function coverageText(c: ReturnType<typeof routineCoverage>): string {
  if (!c.judged) return c.message;
  const example = (e: { id: number; title: string; publication_date: string | null; matched_terms: string[] }) =>
    `    [${e.id}] ${e.title} (${e.publication_date ?? 'undated'}; matched: ${e.matched_terms.join(', ') || 'none'})`;
  return [
    `Coverage of routine ${c.routine_id} against: "${c.intent}"`,
    `  looked for ${c.terms.join(', ')} (a paper needs ${c.terms_needed})`,
    `  results ${c.results_total}, on target ${c.on_target_total}`,
    `  off target: ${c.off_target.total}`,
    ...c.off_target.examples.map(example),
    `  missed in corpus: at least ${c.missed_in_corpus.total}`,
    ...c.missed_in_corpus.examples.map(example),
    '',
    c.method,
  ].join('\n');
}
