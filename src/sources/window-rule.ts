/**
 * Whether a source can answer a run's date window at all: one rule for the
 * run (driver.ts records it as the source's zero reason and does not ask) and
 * for the forms that offer the source before a run (catalog.ts marks it not
 * searchable for that window, with the same sentence).
 */
import type { DateWindowSupport } from './types.js';

/** The sentence saying why `name` cannot be asked with (or without) a window, or null when it can. */
export function windowRefusal(name: string, support: DateWindowSupport, windowGiven: boolean): string | null {
  if (windowGiven && support === 'none') return `${name} cannot filter by date, so it is not asked for a date window; leave the dates empty to ask it.`;
  if (!windowGiven && support === 'required') return `${name} answers only for a date interval; give a from and to date.`;
  return null;
}
