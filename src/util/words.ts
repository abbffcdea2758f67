/** Wording shared by everything that writes sentences: reports, logs, notifications and the CLI's views. */

/** "1 paper", "2 papers", "0 papers": a count with its noun agreed, instead of "paper(s)". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
