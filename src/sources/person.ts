/**
 * Names as several sources write them ("Spicer, Rachel", "Persson, M. V.",
 * Scopus's "Sumithra M.G.") turned into the Author every adapter emits:
 * display name "Given Family", with the parts kept for identity keys.
 */
import { author, splitName } from './normalize.js';
import type { Author } from './types.js';

/** "Family, Given" or "Given Family" → Author named "Given Family". */
export function personFromName(raw: string, extra: Partial<Author> = {}): Author | undefined {
  const clean = raw.replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  const parts = splitName(clean);
  const display = clean.includes(',') && parts.given && parts.family ? `${parts.given} ${parts.family}` : clean;
  return author(display, { ...parts, ...extra });
}

/** Scopus's "Family I.J." (initials last, no comma) → Author; other shapes as personFromName. */
export function personFromInitialsLast(raw: string): Author | undefined {
  const m = /^(.+?)\s+((?:[A-Z][a-z]?\.-?\s?)+)$/.exec(raw.replace(/\s+/g, ' ').trim());
  if (!m) return personFromName(raw);
  const family = m[1]!.trim();
  const given = m[2]!.replace(/\s+/g, '');
  return author(`${given} ${family}`, { given, family });
}
