/**
 * `svc routine add` on a terminal with no flags: ask for the routine with
 * @clack/prompts — name, query, sources from the catalog, a schedule with a
 * preview of its next three fires, the intent sentence and the window. Each
 * answer is checked when it is given, by the rule the command applies
 * (checks.ts, the service's schema): a refusal is shown and the
 * question asked again, so nothing typed is lost and no refusal names a flag.
 * The prompt functions are passed in so the flow can be driven in tests.
 */
import type { Context } from '../../src/context.js';
import { promptCancelled } from '../lib/confirm.js';
import { utcMinute, zoneMinute } from '../lib/dates.js';
import { oneLine } from '../lib/words.js';
import { parseSchedule } from '../../src/scheduler/cron.js';
import { searchableRepositories, sourcesNeedingDates } from '../../src/sources/catalog.js';
import { listProfiles } from '../../src/profiles/service.js';
import { sourcesAskingAbout } from '../../src/routines/entity.js';
import { checkCron, routineFieldRefusal } from '../../src/routines/schema.js';
import { MAX_WINDOW_DAYS, parameterRefusal } from '../../src/routines/parameters.js';
import { checkRoutineName, checkRoutineSources, checkRoutineWindow } from './checks.js';
import { requireAuthorSource } from './follow-flags.js';
import { refusalOf } from '../lib/prompt-check.js';

export interface Prompter {
  text(opts: { message: string; placeholder?: string; defaultValue?: string; validate?: (value: string | undefined) => string | undefined }): Promise<string | symbol>;
  multiselect(opts: { message: string; options: { value: string; label?: string; hint?: string; disabled?: boolean }[]; initialValues?: string[]; required?: boolean }): Promise<string[] | symbol>;
  confirm(opts: { message: string; initialValue?: boolean }): Promise<boolean | symbol>;
  note(message: string, title?: string): void;
  /** A refused answer that has no validate of its own (a choice among options): said before asking again. */
  refuse(message: string): void;
}

export async function clackPrompter(): Promise<Prompter> {
  const clack = await import('@clack/prompts');
  return { text: clack.text, multiselect: clack.multiselect, confirm: clack.confirm, note: clack.note, refuse: (message) => clack.log.error(message) };
}

function answered<T>(value: T | symbol): T {
  if (typeof value === 'symbol') throw promptCancelled('Nothing created.');
  return value;
}

const DEFAULT_SCHEDULE = '0 6 * * *';

/** Fire times as a person reads them: UTC instant plus the routine's own zone when it has one. */
export function previewLines(expression: string, now: Date, n = 3): string[] {
  const schedule = parseSchedule(expression, now);
  return schedule.nextRuns(n, now).map((d) => {
    const utc = `${utcMinute(d.toISOString())} UTC`;
    if (!schedule.timezone) return utc;
    return `${utc}  (${zoneMinute(d, schedule.timezone)} ${schedule.timezone})`;
  });
}

type Followed = { profile_id: number; mode: 'new_papers' | 'retractions'; person: { id: number; name: string; orcid: string | null } };

/** Ask for a routine; answers a RoutineCreate body. */
export async function askRoutine(ctx: Context, ask: Prompter): Promise<Record<string, unknown>> {
  const name = answered(
    await ask.text({
      message: 'Name of the routine',
      placeholder: 'coral reef ecology',
      validate: (value) => routineFieldRefusal('name', value ?? '') ?? refusalOf(() => checkRoutineName(ctx, (value ?? '').trim(), undefined, true)),
    }),
  ).trim();
  const followed = await askFollow(ctx, ask);
  const query = answered(
    followed
      ? await ask.text({ message: 'Search query, AND-ed with the person (Enter alone: everything by them)', placeholder: '', validate: (value) => parameterRefusal('query', value ?? '') })
      : await ask.text({ message: 'Search query', placeholder: 'coral bleaching', validate: (value) => (value?.trim() ? parameterRefusal('query', value) : 'Give a query: the words to search for.') }),
  ).trim();
  const repositories = await askSources(ctx, ask, followed);
  const schedule = await askSchedule(ctx, ask);
  const intent = answered(
    await ask.text({
      message: 'Intent: one sentence on what belongs in the results (the coverage audit compares against it; empty for none)',
      placeholder: 'field studies of coral bleaching after heatwaves',
      validate: (value) => (value?.trim() ? routineFieldRefusal('intent', value) : undefined),
    }),
  ).trim();
  const needsDays = sourcesNeedingDates(repositories).length > 0;
  const windowDays = answered(
    await ask.text({
      message: `Ask for papers from how many days back at each fire? (1 to ${MAX_WINDOW_DAYS}; ${needsDays ? `${sourcesNeedingDates(repositories).map((s) => s.id).join(' and ')} need${sourcesNeedingDates(repositories).length === 1 ? 's' : ''} one` : 'Enter alone: no date limit'})`,
      placeholder: '7',
      validate: (value) => {
        const days = value?.trim() ?? '';
        if (!days) return refusalOf(() => checkRoutineWindow(repositories, null, true));
        return /^\d{1,9}$/.test(days) ? parameterRefusal('window_days', Number(days)) : 'A whole number of days, or Enter alone for none.';
      },
    }),
  ).trim();
  return {
    name,
    schedule_cron: schedule,
    parameters: { repositories, query, ...(windowDays ? { window_days: Number(windowDays) } : {}) },
    ...(intent ? { intent } : {}),
    ...(followed ? { entity: { profile_id: followed.profile_id, mode: followed.mode } } : {}),
  };
}

/**
 * Every source of the catalog: those that cannot be searched now are shown with why
 * (needs a key, retired, only for an ORCID iD) and cannot be picked; those that need a
 * date window say so. A pick the checks refuse is said, and the question asked again.
 */
async function askSources(ctx: Context, ask: Prompter, followed: Followed | null): Promise<string[]> {
  const orcid = Boolean(followed?.person.orcid);
  const sources = searchableRepositories(ctx).repositories;
  const byAuthor = new Set(followed ? sourcesAskingAbout(sources.map((s) => s.id), followed.person.orcid) : []);
  const needsDates = new Set(sourcesNeedingDates(sources.map((s) => s.id)).map((s) => s.id));
  const blocked = (s: (typeof sources)[number]) => !s.searchable && !(orcid && s.reason === 'entity_unsupported');
  const hint = (s: (typeof sources)[number]) => {
    if (blocked(s)) return oneLine(s.message ?? 'cannot be searched now');
    if (followed && !byAuthor.has(s.id)) return 'cannot search by author';
    return needsDates.has(s.id) ? 'answers only for a date window: give a number of days at the last question' : undefined;
  };
  const options = sources.map((s) => ({ value: s.id, label: `${s.name} (${s.id})`, hint: hint(s), disabled: blocked(s) }));
  let picked: string[] = [];
  for (;;) {
    picked = answered(await ask.multiselect({ message: 'Sources to search (space to select)', options, initialValues: picked, required: true }));
    const refusal = refusalOf(() => {
      checkRoutineSources(ctx, picked, orcid, true);
      if (followed) requireAuthorSource(ctx, followed.person, picked, true);
    });
    if (!refusal) return picked;
    ask.refuse(refusal);
    picked = picked.filter((id) => options.find((o) => o.value === id && !o.disabled));
  }
}

async function askSchedule(ctx: Context, ask: Prompter): Promise<string> {
  for (;;) {
    const schedule =
      answered(
        await ask.text({
          message: 'Schedule (cron: minute hour day month weekday, UTC unless CRON_TZ=Zone …)',
          placeholder: DEFAULT_SCHEDULE,
          defaultValue: DEFAULT_SCHEDULE,
          validate: (value) => refusalOf(() => checkCron(value?.trim() || DEFAULT_SCHEDULE, ctx.clock.now())),
        }),
      ).trim() || DEFAULT_SCHEDULE;
    ask.note(previewLines(schedule, ctx.clock.now()).join('\n'), 'Next three fires');
    if (answered(await ask.confirm({ message: 'Use this schedule?', initialValue: true }))) return schedule;
  }
}

/** Asked only when person profiles exist: which one the routine follows (none by default), and how. */
async function askFollow(ctx: Context, ask: Prompter): Promise<Followed | null> {
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
  return { profile_id: person.id, mode: retractions ? 'retractions' : 'new_papers', person: { id: person.id, name: person.name, orcid: person.orcid ?? null } };
}
