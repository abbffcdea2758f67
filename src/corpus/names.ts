/**
 * Name keys for matching people across records. A key is the folded family
 * name and the first initial ("lovelace a"): sources write "A. Lovelace",
 * "Lovelace, Ada" and "Ada King Lovelace", and all of them must meet the
 * profile. The key only finds candidates; givenNamesAgree then refuses pairs
 * whose spelled-out given names differ ("Alan" is not "Ada").
 */
import { splitName, titleKey } from '../sources/normalize.js';

export interface NameParts {
  given: string;
  family: string;
}

const fold = (s: string) => titleKey(s).replace(/\s+/g, ' ').trim();

/** Folded given and family names of a written name or an author record's parts. */
export function nameParts(name: string, given?: string, family?: string): NameParts {
  const split = given || family ? { given, family } : splitName(name);
  return { given: fold(split.given ?? ''), family: fold(split.family ?? name) };
}

/** "lovelace a"; the family alone when no given name is known. */
export function nameKey(parts: NameParts): string {
  const initial = parts.given.charAt(0);
  return initial ? `${parts.family} ${initial}` : parts.family;
}

/**
 * Do two given names name the same person as far as strings can tell? Initials
 * agree with any name that starts with them; two spelled-out first names must
 * be equal. An empty given name agrees with anything (the key already matched).
 */
export function givenNamesAgree(a: string, b: string): boolean {
  const first = (s: string) => s.split(' ')[0] ?? '';
  const fa = first(a);
  const fb = first(b);
  if (!fa || !fb) return true;
  if (fa.length === 1 || fb.length === 1) return fa[0] === fb[0];
  return fa === fb;
}

/**
 * Does an author affiliation contain one of the profile's affiliations, as
 * whole words (folded)? Only that direction, and only whole words: "Mila" is
 * not found in "Similarity Lab", and an author who lists only "University"
 * does not confirm a profile affiliation "University of Oxford" (the evidence
 * would name an affiliation the paper never wrote).
 */
export function sharedAffiliation(profileAffiliations: string[], authorAffiliations: string[]): string | undefined {
  const author = authorAffiliations.map((a) => ` ${fold(a)} `);
  for (const raw of profileAffiliations) {
    const wanted = fold(raw);
    if (wanted.length < 3) continue;
    if (author.some((a) => a.includes(` ${wanted} `))) return raw;
  }
  return undefined;
}

/** A group's name (a lab, a collaboration) agrees only when the whole folded name does: "The ALICE Collaboration" is not "The ATLAS Collaboration". */
export function wholeNamesAgree(a: NameParts, b: NameParts): boolean {
  return a.family === b.family && a.given === b.given;
}
