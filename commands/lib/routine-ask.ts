/**
 * `svc routine add` on a terminal with no flags: ask for the routine with
 * @clack/prompts — name, query, sources from the catalog, a schedule with a
 * preview of its next three fires, and the intent sentence. The prompt
 * functions are passed in so the flow can be driven by a script in tests.
 */
import type { Context } from '../../src/context.js';
import { promptCancelled } from './confirm.js';
import { utcMinute, zoneMinute } from './dates.js';
import { oneLine } from './words.js';
import { CronSyntaxError, parseSchedule } from '../../src/scheduler/cron.js';
import { searchableRepositories } from '../../src/sources/catalog.js';
import { listProfiles } from '../../src/profiles/service.js';
import { sourcesAskingAbout } from '../../src/routines/entity.js';

export interface Prompter {
  text(opts: { message: string; placeholder?: string; defaultValue?: string; validate?: (value: string | undefined) => string | undefined }): Promise<string | symbol>;
  multiselect(opts: { message: string; options: { value: string; label?: string; hint?: string }[]; required?: boolean }): Promise<string[] | symbol>;
  confirm(opts: { message: string; initialValue?: boolean }): Promise<boolean | symbol>;
  note(message: string, title?: string): void;
}

export async function clackPrompter(): Promise<Prompter> {
  const clack = await import('@clack/prompts');
  return { text: clack.text, multiselect: clack.multiselect, confirm: clack.confirm, note: clack.note };
}

function answered<T>(value: T | symbol): T {
  if (typeof value === 'symbol') throw promptCancelled('Nothing created.');
  return value;
}

const required = (what: string) => (value: string | undefined) => (value && value.trim() ? undefined : `Give a ${what}.`);

/** Fire times as a person reads them: UTC instant plus the routine's own zone when it has one. */
export function previewLines(expression: string, now: Date, n = 3): string[] {
  const schedule = parseSchedule(expression, now);
  return schedule.nextRuns(n, now).map((d) => {
    const utc = `${utcMinute(d.toISOString())} UTC`;
    if (!schedule.timezone) return utc;
    return `${utc}  (${zoneMinute(d, schedule.timezone)} ${schedule.timezone})`;
  });
}

/** Ask for a routine; answers a RoutineCreate body. */
export async function askRoutine(ctx: Context, ask: Prompter): Promise<Record<string, unknown>> {
  const name = answered(await ask.text({ message: 'Name of the routine', placeholder: 'coral reef ecology', validate: required('name') }));
  const entity = await askFollow(ctx, ask);
  const query = entity
    ? answered(await ask.text({ message: 'Search query, AND-ed with the person (Enter alone: everything by them)', placeholder: '' }))
    : answered(await ask.text({ message: 'Search query', placeholder: 'coral bleaching', validate: required('query') }));
  const sources = searchableRepositories(ctx).repositories.filter((r) => r.reason !== 'retired');
  const byAuthor = new Set(entity ? sourcesAskingAbout(sources.map((s) => s.id), entity.orcid) : []);
  const hint = (s: (typeof sources)[number]) => (entity && !byAuthor.has(s.id) ? 'cannot search by author' : s.searchable ? undefined : (s.message ?? undefined));
  const repositories = answered(
    await ask.multiselect({
      message: 'Sources to search (space to select)',
      options: sources.map((s) => ({ value: s.id, label: `${s.name} (${s.id})`, hint: hint(s) })),
      required: true,
    }),
  );
  let schedule: string;
  for (;;) {
    schedule = answered(
      await ask.text({
        message: 'Schedule (cron: minute hour day month weekday, UTC unless CRON_TZ=Zone …)',
        placeholder: '0 6 * * *',
        defaultValue: '0 6 * * *',
        validate: (value) => {
          try {
            parseSchedule(value?.trim() || '0 6 * * *', ctx.clock.now());
            return undefined;
          } catch (err) {
            return err instanceof CronSyntaxError ? err.message : String(err);
          }
        },
      }),
    ).trim() || '0 6 * * *';
    ask.note(previewLines(schedule, ctx.clock.now()).join('\n'), 'Next three fires');
    if (answered(await ask.confirm({ message: 'Use this schedule?', initialValue: true }))) break;
  }
  const intent = answered(
    await ask.text({ message: 'Intent: one sentence on what belongs in the results (the coverage audit compares against it; empty for none)', placeholder: 'field studies of coral bleaching after heatwaves' }),
  ).trim();
  const windowDays = answered(
    await ask.text({
      message: 'Ask for papers from how many days back at each fire? (a number of days; Enter alone: no date limit)',
      placeholder: '7',
      validate: (value) => (!value || /^\d{1,4}$/.test(value.trim()) ? undefined : 'A whole number of days, or empty.'),
    }),
  ).trim();
  return {
    name: name.trim(),
    schedule_cron: schedule,
    parameters: { repositories, query: query.trim(), ...(windowDays ? { window_days: Number(windowDays) } : {}) },
    ...(intent ? { intent } : {}),
    ...(entity ? { entity: { profile_id: entity.profile_id, mode: entity.mode } } : {}),
  };
}

/** Asked only when person profiles exist: which one the routine follows (none by default), and how. */
async function askFollow(ctx: Context, ask: Prompter): Promise<{ profile_id: number; mode: 'new_papers' | 'retractions'; orcid: string | null } | null> {
  const people = listProfiles(ctx, 'person').profiles;
  if (people.length === 0) return null;
  const shown = people.slice(0, 8).map((p) => `${p.id} ${oneLine(p.name)}`).join(', ');
  const raw = answered(
    await ask.text({
      message: `Follow a watch profile? Its id (${shown}${people.length > 8 ? ', … see svc profile list' : ''}); Enter alone: none`,
      validate: (value) => (!value?.trim() || people.some((p) => String(p.id) === value.trim()) ? undefined : 'The id of a person profile from the list, or nothing.'),
    }),
  ).trim();
  const person = people.find((p) => String(p.id) === raw);
  if (!person) return null;
  const retractions = answered(await ask.confirm({ message: `Watch ${oneLine(person.name)}'s papers for retractions, corrections and new versions, and report those instead of new papers (mode retractions)?`, initialValue: false }));
  return { profile_id: person.id, mode: retractions ? 'retractions' : 'new_papers', orcid: person.orcid ?? null };
}
