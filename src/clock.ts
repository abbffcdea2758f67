/** Time, passed in so tests and the scheduler can use a fake one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** UTC ISO-8601 with Z: the one spelling of every stored instant. */
export function isoUtc(date: Date): string {
  return date.toISOString();
}
