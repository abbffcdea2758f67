/**
 * The schedule builder's state: a kind of schedule (every N minutes, hourly,
 * daily, weekly, monthly, or cron fields typed by hand), its times and days,
 * and a time zone. It only writes the five fields and the CRON_TZ= prefix the
 * service's dialect reads; whether they are valid, what they mean in words
 * and when they fire come from the service (the schedule preview shell
 * action, the calendar), never from here.
 */
export type ScheduleKind = 'minutes' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'custom';

export interface ScheduleDraft {
  kind: ScheduleKind;
  /** Every N minutes. */
  every: string;
  /** HH:MM for daily, weekly and monthly. */
  time: string;
  /** Minute past the hour, for hourly. */
  minute: string;
  /** 0 (Sunday) to 6. */
  weekdays: number[];
  monthDay: string;
  /** The five fields when typed by hand (also what the other kinds come to). */
  fields: string;
  /** An IANA zone; 'UTC' for none. */
  timezone: string;
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export const EMPTY_SCHEDULE: ScheduleDraft = { kind: 'weekly', every: '15', time: '08:00', minute: '0', weekdays: [1], monthDay: '1', fields: '0 8 * * 1', timezone: 'UTC' };

/** The five fields the builder's choices come to; for `custom`, what was typed. */
export function fieldsOf(d: ScheduleDraft): string {
  const [h, m] = d.time.split(':').map((x) => String(Number(x)));
  switch (d.kind) {
    case 'minutes':
      return d.every.trim() === '1' ? '* * * * *' : `*/${d.every.trim()} * * * *`;
    case 'hourly':
      return `${Number(d.minute) || 0} * * * *`;
    case 'daily':
      return `${m} ${h} * * *`;
    case 'weekly':
      return `${m} ${h} * * ${d.weekdays.length ? [...d.weekdays].sort().join(',') : '*'}`;
    case 'monthly':
      return `${m} ${h} ${d.monthDay.trim() || '1'} * *`;
    case 'custom':
      return d.fields.trim();
  }
}

/** What a routine stores as schedule_cron: the fields, after CRON_TZ=<zone> for a zone other than UTC. */
export function expressionOf(d: ScheduleDraft): string {
  const fields = fieldsOf(d);
  return d.timezone && d.timezone !== 'UTC' ? `CRON_TZ=${d.timezone} ${fields}` : fields;
}

/** A stored schedule back into the builder: its zone and its fields, typed by hand (the person may pick a kind again). */
export function scheduleFromExpression(expression: string): ScheduleDraft {
  const zoned = /^CRON_TZ=(\S+)\s+(.+)$/.exec(expression.trim());
  return { ...EMPTY_SCHEDULE, kind: 'custom', fields: zoned ? zoned[2]! : expression.trim(), timezone: zoned ? zoned[1]! : 'UTC' };
}

/** The zones this browser knows, the person's own and UTC first. */
export function zones(): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...(own && own !== 'Etc/UTC' ? [own] : []), ...all])];
}
