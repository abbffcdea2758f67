/** Small wording helpers shared by the human views. */

/** "1 paper", "2 papers", "0 papers": a count with its noun agreed, instead of "paper(s)". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** At most `max` characters, ending in "…" when cut (never a cut that looks like the whole text, nor a trailing space). */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}
