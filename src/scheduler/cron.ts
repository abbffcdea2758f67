/**
 * The cron dialect of svc routines, parsed once here for every door.
 *
 * Five fields: minute hour day-of-month month day-of-week. Numbers, `*`,
 * ranges `a-b`, steps `* /n` and `a-b/n`, lists `a,b`, names JAN–DEC and
 * SUN–SAT (0 and 7 are Sunday), `?` as `*`, and croner's `L`, `W` and `#`
 * in the day fields. When both day fields are restricted a day matching either
 * fires (Vixie cron's rule). Nicknames @yearly @annually @monthly @weekly
 * @daily @midnight @hourly. No seconds field, no @reboot. Times are UTC unless
 * the expression starts with `CRON_TZ=<IANA zone> ` (cronie's spelling), for
 * example `CRON_TZ=Europe/Berlin 0 6 * * 1-5`.
 *
 * croner computes fire times; it never owns a timer here, so the scheduler
 * (and the tests) decide when time passes.
 */
import { Cron } from 'croner';
import { countFires } from './count.js';
import { count } from '../util/words.js';

export const MAX_CRON_LENGTH = 200;
export const NICKNAMES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'] as const;

export class CronSyntaxError extends Error {}

export interface Schedule {
  /** As written, CRON_TZ prefix included. */
  expression: string;
  /** An IANA zone, or null for UTC. */
  timezone: string | null;
  /** The first fire strictly after `t`, or null when none is left. */
  nextAfter(t: Date): Date | null;
  /** Up to `n` fires strictly after `t`. */
  nextRuns(n: number, t: Date): Date[];
  /** The last fire strictly before `t`, or null. */
  lastBefore(t: Date): Date | null;
  /** Fires in (after, until]: how many, the first and the last. Exact, without visiting every fire. */
  countBetween(after: Date, until: Date): { count: number; first: Date | null; last: Date | null };
}

function checkZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new CronSyntaxError(`Unknown time zone "${zone.slice(0, 64)}" in CRON_TZ; use an IANA name such as Europe/Berlin or America/New_York.`);
  }
}

function checkFields(pattern: string): void {
  if (pattern.startsWith('@')) {
    const nick = pattern.toLowerCase();
    if (nick === '@reboot') throw new CronSyntaxError('@reboot is not a time: a routine fires on a clock. Use a five-field expression or @daily, @hourly…');
    if (!(NICKNAMES as readonly string[]).includes(nick)) throw new CronSyntaxError(`Unknown nickname "${pattern.slice(0, 32)}"; svc accepts ${NICKNAMES.join(', ')}.`);
    return;
  }
  const fields = pattern.split(/\s+/);
  if (fields.length === 6 || fields.length === 7) {
    throw new CronSyntaxError(`"${pattern}" has ${fields.length} fields; svc schedules have five (minute hour day-of-month month day-of-week) and no seconds field.`);
  }
  if (fields.length !== 5) {
    throw new CronSyntaxError(`"${pattern}" has ${count(fields.length, 'field')}; a schedule has five: minute hour day-of-month month day-of-week, for example "0 6 * * *".`);
  }
}

function build(pattern: string, timezone: string | null): Cron {
  try {
    // utcOffset 0 rather than timezone "UTC": the same answers, ten times faster (no Intl per step).
    return new Cron(pattern, { paused: true, mode: '5-part', ...(timezone ? { timezone } : { utcOffset: 0 }) });
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^CronPattern:\s*/, '') : String(err);
    throw new CronSyntaxError(`"${pattern}" is not a valid schedule: ${message}.`.replace(/\.\.$/, '.'));
  }
}

/**
 * Parsed schedules by expression. A routine list reads every routine's
 * schedule on each request, and building a croner pattern costs far more than
 * the read; a parsed schedule is a pure function of its text (the zone is part
 * of it), so one parse serves every later read. Bounded: a process that sees
 * more distinct expressions starts the cache afresh.
 */
const parsed = new Map<string, { schedule: Schedule; pattern: string; firesAfter: number }>();
export const PARSED_SCHEDULES_KEPT = 1000;

/**
 * Parse an expression of the dialect; throws CronSyntaxError saying what is
 * wrong. `reference` is the instant from which it must still fire at least once.
 *
 * @example parseSchedule('CRON_TZ=Europe/Berlin 0 6 * * 1-5', new Date()).nextRuns(3, new Date())
 */
export function parseSchedule(expression: string, reference: Date): Schedule {
  const text = expression.trim();
  const known = parsed.get(text);
  if (known) {
    // A fire already found after the reference answers "does it still fire" without a search.
    if (known.firesAfter > reference.getTime()) return known.schedule;
    const next = known.schedule.nextAfter(reference);
    if (next === null) throw neverFires(known.pattern);
    known.firesAfter = next.getTime();
    return known.schedule;
  }
  const { schedule, pattern, firstFire } = parseAfresh(text, reference);
  if (parsed.size >= PARSED_SCHEDULES_KEPT) parsed.clear();
  parsed.set(text, { schedule, pattern, firesAfter: firstFire.getTime() });
  return schedule;
}

const neverFires = (pattern: string) => new CronSyntaxError(`"${pattern}" never fires (no date matches every field, like February 30).`);

function parseAfresh(text: string, reference: Date): { schedule: Schedule; pattern: string; firstFire: Date } {
  if (text === '') throw new CronSyntaxError('The schedule is empty; write five fields such as "0 6 * * *" (every day at 06:00 UTC).');
  if (text.length > MAX_CRON_LENGTH) throw new CronSyntaxError(`A schedule has at most ${MAX_CRON_LENGTH} characters.`);
  const tz = /^CRON_TZ=(\S+)\s+(.+)$/.exec(text);
  if (!tz && text.startsWith('CRON_TZ=')) throw new CronSyntaxError('CRON_TZ=<zone> must be followed by a space and the five fields.');
  // TZ=, cron_tz= and the like would otherwise count as a sixth field and be taken for seconds.
  const prefix = /^([A-Za-z_]+)=/.exec(text);
  if (!tz && prefix) throw new CronSyntaxError(`"${prefix[1]!.slice(0, 16)}=" is not read here; only CRON_TZ=<zone> may come before the five fields, for example "CRON_TZ=Europe/Berlin 0 6 * * *".`);
  const timezone = tz ? tz[1]! : null;
  const pattern = tz ? tz[2]!.trim() : text;
  if (timezone) checkZone(timezone);
  checkFields(pattern);
  const cron = build(pattern, timezone);
  const firstFire = cron.nextRun(reference);
  if (firstFire === null) throw neverFires(pattern);
  const midnight = new Cron('0 0 * * *', { paused: true, mode: '5-part', ...(timezone ? { timezone } : { utcOffset: 0 }) });
  const schedule: Schedule = {
    expression: text,
    timezone,
    nextAfter: (t) => cron.nextRun(t),
    nextRuns: upcomingMemo((n, t) => cron.nextRuns(n, t)),
    lastBefore: (t) => cron.previousRuns(1, t)[0] ?? null,
    countBetween: (after, until) => countFires(schedule, midnight, timezone, after, until),
  };
  return { schedule, pattern, firstFire };
}

/**
 * The last answer of nextRuns, reused while it is still the answer: the fires
 * after any instant from the one asked up to (not including) the first fire
 * found are the same fires. Every read of a routine asks for its next fires
 * from now, and now moves less often past a fire than reads come.
 */
function upcomingMemo(compute: (n: number, t: Date) => Date[]): (n: number, t: Date) => Date[] {
  let last: { from: number; asked: number; fires: Date[] } | null = null;
  return (n, t) => {
    const at = t.getTime();
    const fits = last && at >= last.from && last.fires.length > 0 && at < last.fires[0]!.getTime() && (n <= last.fires.length || last.fires.length < last.asked);
    if (fits) return last!.fires.slice(0, n).map((d) => new Date(d.getTime()));
    const fires = compute(n, t);
    last = { from: at, asked: n, fires: fires.map((d) => new Date(d.getTime())) };
    return fires;
  };
}
