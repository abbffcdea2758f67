/** Wording shared by everything that writes sentences: reports, logs, notifications and the CLI's views. */

/** "1 paper", "2 papers", "0 papers": a count with its noun agreed, instead of "paper(s)". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A stored UTC instant inside a sentence: to the minute, saying UTC ("2026-11-27 18:12 UTC"); the *_utc fields keep it exact. */
export function minuteUtc(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** A size in a sentence, as the man pages write it: "16 MiB", "64 KiB", "1.5 MiB", "512 bytes". */
export function sizeWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
