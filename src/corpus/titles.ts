/**
 * Titles compared the way messy records write them. Both sides are read
 * without markup (HTML tags and entities, TeX: titleKey), folded (accents,
 * case, British and American spelling, plurals), and then the words that
 * differ are looked at:
 *
 * - equal: nothing but markup, spelling, punctuation or small words differ;
 * - subtitle_dropped: one side is the other without its subtitle ("X: a
 *   systematic review" and "X"), the main title long enough to mean something;
 * - near: a word or two added or respelled, the rest the same;
 * - revised: several words rewritten, characters still mostly shared (what a
 *   journal does to a preprint's title);
 * - word_swapped: one content word (or two) replaced by another, nothing else
 *   added or removed ("… in mouse liver" and "… in rat liver"): another work
 *   unless an identifier says otherwise;
 * - different: anything else, and any pair whose numbers differ (Part I and
 *   Part II, 2019 and 2020).
 */
import { titleKey } from '../sources/normalize.js';

export type TitleRelation = 'equal' | 'subtitle_dropped' | 'near' | 'revised' | 'word_swapped' | 'different';

export interface TitleForms {
  /** titleKey of the whole title. */
  key: string;
  /** The key without spaces ("covid 19" and "covid19" meet). */
  compact: string;
  /** Folded content words (small words left out), in order. */
  content: string[];
  /** Digit runs, then number words (roman numerals up to xii, one to ten, ordinals). */
  numbers: string;
  /** Key of the main title (before ": ", " - ", "? ", "! ", "—"), or undefined when there is no subtitle. */
  main?: string;
  /** Content words of the main title (empty without a subtitle). */
  mainWords: string[];
  /** Character trigrams of the key. */
  grams: Set<string>;
}

export interface TitleComparison {
  relation: TitleRelation;
  /** Character trigram Dice of the two keys (1 for equal keys). */
  similarity: number;
  /** For word_swapped: the word of each side. */
  swapped?: [string, string];
}

const SMALL_WORDS = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'for', 'to', 'with', 'by', 'at', 'from', 'and', 'or', 'is', 'are', 'be', 'as', 'via', 'its', 'their', 'into', 'onto',
  'toward', 'towards', 'through', 'within', 'upon', 'vs', 'versus', 'this', 'that', 'these', 'those', 'do', 'does', 'can', 'we', 'our', 'how', 'what', 'why',
]);
const NUMBER_WORD = /^(\d+|i|ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth)$/;
const SUBTITLE = /\s*(?::|\s[-–—]\s|—|\?|!|\.\s)\s*/;
/** Main titles shorter than this many content words are too generic to stand for the whole ("Introduction: …"). */
const MIN_MAIN_CONTENT = 3;

const IRREGULAR: Record<string, string> = { mice: 'mouse', children: 'child', women: 'woman', men: 'man', teeth: 'tooth', feet: 'foot', lice: 'louse', geese: 'goose' };

/** One spelling for words British and American English, or singular and plural, write two ways. */
export function foldWord(word: string): string {
  let w = IRREGULAR[word] ?? word;
  // One test before the six rewrites: most words have none of these spellings (the link scan folds every title word).
  if (w.length >= 6 && /is|ys|our|tre|ae|oe/.test(w)) {
    w = w
      .replace(/isation(s?)$/, 'ization$1')
      .replace(/is(e|ed|es|ing)$/, 'iz$1')
      .replace(/ys(e|ed|es|ing)$/, 'yz$1')
      .replace(/our(s?)$/, 'or$1')
      .replace(/tre(s?)$/, 'ter$1')
      // haemoglobin, paediatric, oestrogen, foetal, diarrhoea
      .replace(/(^|[^aeiou])(ae|oe)/g, '$1e');
  }
  if (w.length >= 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length >= 4 && w.endsWith('s') && !/(ss|us|is|ys)$/.test(w)) return w.slice(0, -1);
  return w;
}

function trigrams(key: string): Set<string> {
  const out = new Set<string>();
  const padded = ` ${key} `;
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

export function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) common++;
  return (2 * common) / (a.size + b.size);
}

// Letters and digits split apart first: "covid19" has the words of "covid 19".
const contentOf = (key: string) => key.replace(/(?<=\p{L})(?=\d)|(?<=\d)(?=\p{L})/gu, ' ').split(' ').filter((w) => w && !SMALL_WORDS.has(w) && !NUMBER_WORD.test(w)).map(foldWord);

/** A subtitle that says which part, volume or year: digits, roman numerals, "part", "volume". */
const numbersAPart = (subtitle: string) => /\d/.test(subtitle) || subtitle.split(' ').some((w) => /^(part|vol|volume|chapter|section|ii|iii|iv|vi|vii|viii|ix|xi|xii)$/.test(w));

/** Digit runs wherever they stand ("covid19" and "covid 19" both say 19), then number words. */
const numbersOf = (key: string, words: string[]) => [...(key.match(/\d+/g) ?? []), ...words.filter((w) => NUMBER_WORD.test(w) && !/\d/.test(w))].join(' ');

/** The title's key and, when it has a subtitle, its main title's key. */
export function titleKeys(title: string): { key: string; main: string | undefined } {
  const key = titleKey(title);
  const cut = SUBTITLE.exec(title.trim());
  const mainKey = cut && cut.index > 0 ? titleKey(title.trim().slice(0, cut.index)) : undefined;
  return { key, main: mainKey && mainKey !== key ? mainKey : undefined };
}

export function titleForms(title: string): TitleForms {
  const { key, main } = titleKeys(title);
  const words = key.split(' ').filter(Boolean);
  return {
    key,
    compact: key.replace(/ /g, ''),
    content: contentOf(key),
    numbers: numbersOf(key, words),
    main,
    mainWords: main ? contentOf(main) : [],
    grams: trigrams(key),
  };
}

/** Endings that make another form of the same word ("programme", "catalogue", "prediction"). */
const SAME_WORD_ENDINGS = new Set(['e', 'me', 'ue', 'al', 'ic', 'ed', 'ing', 'ion', 'ation', 'es', 'ly']);

/**
 * Two spellings of one word: one the other plus an ending of SAME_WORD_ENDINGS, or a letter apart in
 * a long word ("modelling", "judgement"). Short words are never respellings: "mouse" and "moose",
 * "Niger" and "Nigeria" are different words.
 */
function variants(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (short.length >= 5 && long.startsWith(short) && SAME_WORD_ENDINGS.has(long.slice(short.length))) return true;
  return short.length >= 7 && editDistanceAtMost(a, b, short.length >= 10 ? 2 : 1);
}

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > max) return false;
    prev = row;
  }
  return prev[b.length]! <= max;
}

/** The words of each side the other lacks (as multisets), respellings paired off. */
function wordDifference(a: string[], b: string[]): [string[], string[]] {
  const rest = [...b];
  const onlyA: string[] = [];
  for (const w of a) {
    const at = rest.indexOf(w);
    if (at >= 0) rest.splice(at, 1);
    else onlyA.push(w);
  }
  const onlyB = rest;
  for (let i = onlyA.length - 1; i >= 0; i--) {
    const at = onlyB.findIndex((w) => variants(onlyA[i]!, w));
    if (at >= 0) {
      onlyA.splice(i, 1);
      onlyB.splice(at, 1);
    }
  }
  // A word written in two pieces on one side ("meta analysis", "metaanalysis").
  if (onlyA.length + onlyB.length > 1 && onlyA.join('') === onlyB.join('')) return [[], []];
  return [onlyA, onlyB];
}

/** The same content words, respellings aside ("and" and "&", "tumour" and "tumor" alike). */
function sameWords(a: string[], b: string[]): boolean {
  const [onlyA, onlyB] = wordDifference(a, b);
  return onlyA.length === 0 && onlyB.length === 0;
}

export function compareTitles(a: TitleForms, b: TitleForms): TitleComparison {
  if (a.key === b.key || a.compact === b.compact) return { relation: 'equal', similarity: 1 };
  const similarity = dice(a.grams, b.grams);
  // One side is the other's main title: a subtitle dropped. A subtitle that numbers a part or an
  // edition ("X: Part II", "X: 2019 update") is not one a source drops; "X: a first study" is.
  for (const [long, short] of [[a, b], [b, a]] as const) {
    if (long.main !== undefined && short.main === undefined && long.mainWords.length >= MIN_MAIN_CONTENT && sameWords(long.mainWords, short.content) && !numbersAPart(long.key.slice(long.main.length))) {
      return { relation: 'subtitle_dropped', similarity };
    }
  }
  if (a.numbers !== b.numbers) return { relation: 'different', similarity };
  const [onlyA, onlyB] = wordDifference(a.content, b.content);
  if (onlyA.length === 0 && onlyB.length === 0) return { relation: 'equal', similarity };
  // Words put in for others and nothing added: another subject, however often the word recurs
  // ("mouse liver" for "rat liver"; "Twitter" for "Reddit" twice). Two words swapped are still another work.
  const [swappedA, swappedB] = [[...new Set(onlyA)], [...new Set(onlyB)]];
  if (swappedA.length > 0 && swappedA.length === swappedB.length && swappedA.length <= 2 && onlyA.length === onlyB.length) {
    return { relation: 'word_swapped', similarity, swapped: [swappedA.join(' '), swappedB.join(' ')] };
  }
  if (onlyA.length === 0 || onlyB.length === 0) {
    const added = onlyA.length + onlyB.length;
    if (added <= 2 && similarity >= 0.85) return { relation: 'near', similarity };
  }
  return { relation: similarity >= 0.82 ? 'revised' : 'different', similarity };
}
