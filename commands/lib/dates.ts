/** Instants as svc's human views show them: to the minute, year first. */

/** A stored UTC instant ("2026-03-01T06:00:00.000Z") as "2026-03-01 06:00"; `none` when there is none. */
export function utcMinute(iso: string | null | undefined, none = '-'): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : none;
}

/** The same instant on the clocks of `timezone` (an IANA name), as "2026-03-01 07:00". */
export function zoneMinute(d: Date, timezone: string): string {
  // en-CA writes the date year first ("2026-03-01, 07:00").
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' }).format(d).replace(',', '');
}
