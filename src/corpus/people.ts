/**
 * Author lists compared as people, the way messy records write them: "Jane
 * A. Smith", "Smith, Jane", "Smith JA" (PubMed's and Europe PMC's family
 * first, initials last), "J. Smith", "M{\"u}ller" for "Müller", a list cut
 * short with "et al.", an author missing from one side. Two authors are one
 * person when their family names agree (folded; a particle or a second
 * family name on one side only is allowed) and their given names do as far
 * as initials can tell (corpus/names.ts givenNamesAgree: "J." agrees with
 * "Jane", "Jane" does not with "John").
 *
 * Two lists agree when they share people and, where both name co-authors, a
 * co-author too: a first author's surname and initial alone are common enough
 * ("Wang, Y.") that two different papers share them.
 */
import { givenNamesAgree } from './names.js';
import { splitName, titleKey } from '../sources/normalize.js';

export interface Person {
  /** Folded family name words without particles ("van der Berg" → ["berg"]). */
  family: string[];
  /** Folded given names ("jane a"), or "" when only the family is known. */
  given: string;
}

export interface People {
  people: Person[];
  /** The source cut the list short ("et al.", "and others"): a missing co-author says nothing. */
  truncated: boolean;
}

const PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'dei', 'da', 'di', 'do', 'dos', 'das', 'du', 'la', 'le', 'lo', 'ter', 'ten', 'te', 'zu', 'zur', 'bin', 'ibn', 'al', 'el', 'y', 'e', 'mac', 'st']);
const ET_AL = /^(et\.?\s*al\.?|and\s+others|others|\.\.\.|…)$/i;
/** Initials written after the family name: "JA", "J.A.", "J-P", "JA Jr" is not a form sources use. */
const TRAILING_INITIALS = /^(.+?)\s+((?:[A-Z]\.?-?){1,4})$/;

const fold = (s: string) => titleKey(s);

function familyWords(family: string): string[] {
  const words = fold(family).split(' ').filter(Boolean);
  const kept = words.filter((w) => !PARTICLES.has(w) && w.length > 1);
  return kept.length ? kept : words;
}

/** One author as a person: the adapter's parts when it gave them, else the written name read in the forms above. */
export function personOf(author: { name?: string; given?: string; family?: string }): Person | undefined {
  const name = (author.name ?? '').replace(/\s+/g, ' ').trim();
  if (ET_AL.test(name) && !author.family) return undefined;
  let given = author.given;
  let family = author.family;
  if (!family) {
    const initialsLast = name.includes(',') ? null : TRAILING_INITIALS.exec(name);
    if (initialsLast && initialsLast[1]!.length > 1) [family, given] = [initialsLast[1], initialsLast[2]!.replace(/[.-]/g, ' ')];
    else ({ given, family } = splitName(name));
  }
  // An adapter that gave the family alone: the rest of the written name is the given name.
  if (!given && author.family && name) given = name.replace(/,/g, ' ').replace(author.family, ' ').trim();
  const words = familyWords(family ?? name);
  if (words.length === 0) return undefined;
  // "JA" and "J.A." are two initials; a spelled-out name stays one word.
  const g = (given ?? '').trim();
  const spaced = /^[A-Z]{2,4}$/.test(g) ? g.split('').join(' ') : g;
  return { family: words, given: fold(spaced.replace(/\./g, ' ')) };
}

export function peopleOf(authors: readonly { name?: string; given?: string; family?: string }[]): People {
  const people: Person[] = [];
  let truncated = false;
  for (const a of authors) {
    const p = personOf(a);
    if (p) people.push(p);
    else if (ET_AL.test((a.name ?? '').trim())) truncated = true;
  }
  return { people, truncated };
}

/** "Mueller" as ASCII-only systems write "Müller" (folded to "muller"): ae, oe, ue read as a, o, u. */
const transliterated = (w: string) => (w.length >= 5 ? w.replace(/([aou])e/g, '$1') : w);

function familiesAgree(a: string[], b: string[]): boolean {
  // The last word is the family name most sources index on; a compound on one side ("García
  // Márquez" and "Márquez", "M. Bran" as Crossref deposits "Bran") still meets it.
  if (a.some((w) => w.length > 1 && b.includes(w))) return true;
  const bt = b.map(transliterated);
  return a.some((w) => w.length >= 5 && bt.includes(transliterated(w)));
}

/** One person, as far as names can tell; also a name written given-last on one side ("Wang Wei" and "Wei Wang"). */
export function samePerson(a: Person, b: Person): boolean {
  if (familiesAgree(a.family, b.family)) return givenNamesAgree(a.given, b.given);
  const swapped = (x: Person, y: Person) => x.given !== '' && x.given.split(' ')[0]!.length > 1 && y.family.includes(x.given.split(' ')[0]!);
  return swapped(a, b) && swapped(b, a);
}

export interface AuthorAgreement {
  /** People found on both lists. */
  shared: number;
  /** shared over the shorter list. */
  overlap: number;
  firstSame: boolean;
  compared: [number, number];
  /** unknown: a side names nobody; disagree: not enough people in common. */
  verdict: 'agree' | 'disagree' | 'unknown';
}

/**
 * Do two author lists name the same people? Agree: at least one person in
 * common, at least half of the shorter list, and, when both lists name two or
 * more people and neither was cut short, a second person in common.
 */
export function compareAuthors(a: People, b: People): AuthorAgreement {
  const compared: [number, number] = [a.people.length, b.people.length];
  if (a.people.length === 0 || b.people.length === 0) return { shared: 0, overlap: 0, firstSame: false, compared, verdict: 'unknown' };
  const used = new Set<number>();
  let shared = 0;
  for (const p of a.people) {
    const at = b.people.findIndex((q, i) => !used.has(i) && samePerson(p, q));
    if (at >= 0) {
      used.add(at);
      shared++;
    }
  }
  const shorter = Math.min(a.people.length, b.people.length);
  const overlap = shared / shorter;
  const firstSame = samePerson(a.people[0]!, b.people[0]!);
  const coauthorNeeded = shorter >= 2 && !a.truncated && !b.truncated;
  const agree = shared >= 1 && overlap >= 0.5 && (!coauthorNeeded || shared >= 2);
  return { shared, overlap, firstSame, compared, verdict: agree ? 'agree' : 'disagree' };
}
