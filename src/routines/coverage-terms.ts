/**
 * The words of an intent sentence the coverage audit looks for. Lower-cased,
 * accents removed (as the FTS index does), stop words and words of fewer than
 * three letters dropped, and a light suffix stripped so a prefix match finds
 * the other forms ("ecological" → "ecolog" matches ecology, ecologist).
 */
export const MAX_INTENT_TERMS = 12;

const STOP = new Set(
  `a about above across after again against all also am an and any are as at be because been before being below between both but by can could did do does doing
   down during each either etc every few for from further had has have having he her here hers him his how i if in into is it its itself just least less like
   many may me might more most much must my no nor not now of off often on once one only or other our out over own per rather same she should since so some
   such than that the their them then there these they this those through thus to too under until up upon us very via was we were what when where whether which
   while who whom whose why will with within without would yet you your
   paper papers article articles study studies research researches work works new novel recent latest find finding findings want interested interest track
   follow following related regarding toward towards using use used based approach approaches result results`.split(/\s+/),
);

const SUFFIXES = ['ations', 'ation', 'ions', 'ion', 'ically', 'ical', 'ities', 'ity', 'ings', 'ing', 'ies', 'ied', 'ness', 'ments', 'ment', 'ers', 'er', 'es', 'ed', 'al', 'ly', 's', 'y'];

export function stem(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Words of a text as the audit compares them (also used to name the terms a paper matched). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function intentTerms(intent: string): string[] {
  const terms: string[] = [];
  for (const word of words(intent)) {
    if (word.length < 3 || STOP.has(word) || /^\d+$/.test(word)) continue;
    const term = stem(word);
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_INTENT_TERMS) break;
  }
  return terms;
}

/** How many of the terms a paper must contain to fit the intent: all of one or two, else half (rounded up). */
export function termsNeeded(count: number): number {
  return count <= 2 ? count : Math.ceil(count / 2);
}

/** The FTS5 query of one term: a prefix match in title or abstract (terms are letters and digits only). */
export function ftsQuery(term: string): string {
  return `{title abstract} : "${term}"*`;
}
