/**
 * A schedule in words, for people who do not read cron: "every Monday at
 * 08:00, Europe/Berlin". It reads the expression of the dialect parsed in
 * cron.ts (call it after parseSchedule accepted the expression) and says the
 * common shapes plainly; a shape it has no words for (L, W, #, steps inside
 * ranges) is said field by field, never guessed. The fire times themselves
 * always come from cron.ts, not from this sentence.
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const NICKNAME_FIELDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const pad = (n: number) => String(n).padStart(2, '0');
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/** "a", "a and b", "a, b and c". */
function joined(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A field's value as a number, names allowed (MON, JAN); null when it is not a plain value. */
function value(text: string, names: string[], offset: number): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const at = names.indexOf(text.toUpperCase());
  return at === -1 ? null : at + offset;
}

/** A list field (`1,3,5`, `1-5`, `MON-FRI`) as its values; null for anything else (steps, L, W, #). */
function values(field: string, names: string[], offset: number): number[] | null {
  const out: number[] = [];
  for (const part of field.split(',')) {
    const range = /^([^-]+)-([^-]+)$/.exec(part);
    if (range) {
      const [a, b] = [value(range[1]!, names, offset), value(range[2]!, names, offset)];
      if (a === null || b === null || b < a) return null;
      for (let n = a; n <= b; n++) out.push(n);
    } else {
      const n = value(part, names, offset);
      if (n === null) return null;
      out.push(n);
    }
  }
  return out;
}

const isAny = (field: string) => field === '*' || field === '?';

function daysOfWeek(field: string): string | null {
  const days = values(field, DAY_NAMES, 0)?.map((d) => d % 7);
  if (!days) return null;
  const set = [...new Set(days)].sort((a, b) => a - b);
  if (set.join() === '1,2,3,4,5') return 'every weekday (Monday to Friday)';
  if (set.join() === '0,6') return 'every Saturday and Sunday';
  if (set.length === 7) return 'every day';
  return `every ${joined(set.map((d) => DAYS[d]!))}`;
}

function daysOfMonth(field: string): string | null {
  const days = values(field, [], 0);
  return days ? `on the ${joined(days.map(ordinal))} of` : null;
}

function months(field: string): string | null {
  const list = values(field, MONTH_NAMES, 1);
  return list ? joined(list.map((m) => MONTHS[m - 1] ?? String(m))) : null;
}

/** When in the day: "at 08:00", "at 08:00 and 17:30", "every 15 minutes", "every hour at :05". Null when it has no words for it. */
function timeOfDay(minute: string, hour: string): string | null {
  const step = /^\*\/(\d+)$/.exec(minute);
  if (isAny(minute) && isAny(hour)) return 'every minute';
  if (step && isAny(hour)) return `every ${step[1]} minutes`;
  const minutes = values(minute, [], 0);
  if (minutes && isAny(hour)) return minutes.length === 1 && minutes[0] === 0 ? 'every hour, on the hour' : `every hour at ${joined(minutes.map((m) => `:${pad(m)}`))}`;
  const hourStep = /^\*\/(\d+)$/.exec(hour);
  if (minutes?.length === 1 && hourStep) return `every ${hourStep[1]} hours at :${pad(minutes[0]!)}`;
  const hours = values(hour, [], 0);
  if (isAny(minute) && hours) return `every minute of ${joined(hours.map((h) => `${pad(h)}:00–${pad(h)}:59`))}`;
  if (!minutes || !hours || minutes.length * hours.length > 6) return null;
  return `at ${joined(hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)))}`;
}

/** Which days: "every day", "every Monday", "on the 1st of every month", "on the 1st of January". Null when it has no words for it. */
function whichDays(dom: string, month: string, dow: string): string | null {
  const monthWords = isAny(month) ? null : months(month);
  if (!isAny(month) && !monthWords) return null;
  if (isAny(dom) && isAny(dow)) return monthWords ? `every day in ${monthWords}` : 'every day';
  const weekdays = isAny(dow) ? null : daysOfWeek(dow);
  const monthdays = isAny(dom) ? null : daysOfMonth(dom);
  if ((!isAny(dow) && !weekdays) || (!isAny(dom) && !monthdays)) return null;
  const ofMonths = monthWords ?? 'every month';
  const parts = [monthdays && `${monthdays} ${ofMonths}`, weekdays && (monthWords ? `${weekdays} in ${monthWords}` : weekdays)].filter(Boolean) as string[];
  // Both day fields restricted: a day matching either fires (cron.ts).
  return parts.join(', and also ');
}

/**
 * The sentence for an expression of svc's cron dialect, zone included.
 * @example describeSchedule('CRON_TZ=Europe/Berlin 0 8 * * MON') // 'every Monday at 08:00, Europe/Berlin'
 */
export function describeSchedule(expression: string): string {
  const text = expression.trim();
  const tz = /^CRON_TZ=(\S+)\s+(.+)$/.exec(text);
  const zone = tz ? tz[1]! : 'UTC';
  const pattern = (tz ? tz[2]! : text).trim();
  const fields = (NICKNAME_FIELDS[pattern.toLowerCase()] ?? pattern).split(/\s+/);
  if (fields.length !== 5) return `on the schedule "${pattern}", ${zone}`;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const time = timeOfDay(minute, hour);
  const days = whichDays(dom, month, dow);
  if (!time || !days) return `at minute ${minute}, hour ${hour}, day of month ${dom}, month ${month}, day of week ${dow} (cron fields), ${zone}`;
  if (days === 'every day') return `${time.startsWith('every') ? time : `every day ${time}`}, ${zone}`;
  return `${days}${time.startsWith('at ') ? ' ' : ', '}${time}, ${zone}`;
}
