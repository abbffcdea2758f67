/**
 * The local lexical lane: works offline, downloads nothing, and is honest about
 * what it is. A text becomes hashed features (title words, title word pairs,
 * title character 4-grams, abstract words and word pairs), each weighted by
 * sublinear term frequency times inverse document frequency, projected by the
 * hashing trick onto a fixed dimension with a hash-chosen sign, then
 * L2-normalised. Two papers are close when they share rare words and title
 * spellings, not when they mean the same thing in other words: it is lexical,
 * not semantic.
 *
 * Document frequencies are counted per hashed feature (DF_BUCKETS buckets) and
 * stored with the lane (embedding_stats), with the highest document id
 * counted. Every backfill (the after-run one too) first counts the documents
 * after that id, then embeds: each document is counted once, and a vector's
 * weights are those of the corpus when it was written. Queries use the stored
 * counts.
 */

export const LEXICAL_MODEL = 'lexical-hash-v1';
export const LEXICAL_DIMENSION = 384;
export const DF_BUCKETS = 1 << 18;

const STOPWORDS = new Set(
  ('a an and are as at be been being but by can could did do does for from had has have how i if in into is it its may might more most ' +
    'not of on or our over such than that the their them then there these they this those through to under up upon was we were what when where ' +
    'which while who whom why will with within without would you your via using based new study paper results show also both each between ' +
    'however here further thus two one well use used approach method methods')
    .split(' '),
);

export interface LexicalStats {
  documents: number;
  /** The highest document id counted (documents are counted in id order). */
  countedThrough: number;
  df: Uint32Array;
}

export function emptyStats(): LexicalStats {
  return { documents: 0, countedThrough: 0, df: new Uint32Array(DF_BUCKETS) };
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a state `h` carried on over `text` (signed 32 bits; `>>> 0` gives the hash). */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a, 32 bits, over UTF-16 code units (stable across runs and machines). */
export function hash32(text: string): number {
  return fnv(FNV_OFFSET, text) >>> 0;
}

/** Lower case, accents folded, split on anything that is not a letter or digit. */
export function words(text: string): string[] {
  // Decomposing and dropping combining marks changes nothing in ASCII text (most titles): skipped there.
  const folded = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
  return folded
    .toLowerCase()
    .replace(/<[^>]+>/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface LexicalInput {
  title: string;
  abstract?: string | null;
}

const SPACE = 0x20;
/** FNV-1a states after each feature family's prefix. */
const TITLE_WORD = fnv(FNV_OFFSET, 't:');
const TITLE_PAIR = fnv(FNV_OFFSET, 'tb:');
const TITLE_GRAM = fnv(FNV_OFFSET, 'c:');
const ABSTRACT_WORD = fnv(FNV_OFFSET, 'a:');
const ABSTRACT_PAIR = fnv(FNV_OFFSET, 'ab:');

/** The hash of `${prefix}${a} ${b}`, from the prefix's state. */
const pairHash = (prefix: number, a: string, b: string) => fnv(Math.imul(fnv(prefix, a) ^ SPACE, FNV_PRIME), b);

/**
 * Hashed feature → raw count, with a weight per feature family. Each feature is the hash32 of
 * its text ("t:word", "tb:word word", "c:" and a 4-gram of " word ", "a:word", "ab:word word"),
 * computed without building that text: hashing is carried on over its parts.
 */
function features(input: LexicalInput): Map<number, number> {
  const out = new Map<number, number>();
  const add = (h: number, weight: number) => {
    h >>>= 0;
    out.set(h, (out.get(h) ?? 0) + weight);
  };
  const titleWords = words(input.title);
  const kept = titleWords.filter((w) => !STOPWORDS.has(w));
  for (const w of kept) add(fnv(TITLE_WORD, w), 2);
  for (let i = 1; i < kept.length; i++) add(pairHash(TITLE_PAIR, kept[i - 1]!, kept[i]!), 1.5);
  for (const w of titleWords) {
    // The 4-grams of " w ": position k of the padded word is a space at either end.
    const end = w.length + 1;
    for (let i = 0; i + 3 <= end; i++) {
      let h = TITLE_GRAM;
      for (let k = i; k < i + 4; k++) h = Math.imul(h ^ (k === 0 || k === end ? SPACE : w.charCodeAt(k - 1)), FNV_PRIME);
      add(h, 0.5);
    }
  }
  if (input.abstract) {
    const body = words(input.abstract).filter((w) => !STOPWORDS.has(w) && w.length > 1);
    for (const w of body) add(fnv(ABSTRACT_WORD, w), 1);
    for (let i = 1; i < body.length; i++) add(pairHash(ABSTRACT_PAIR, body[i - 1]!, body[i]!), 0.5);
  }
  return out;
}

/**
 * Features counted by `observe`, kept for the `embedLexical` of the same input that follows it
 * (a backfill observes a batch, then embeds it): hashing a text is most of the cost of both.
 * Keyed by the input object, so an entry goes with it; taken out when used.
 */
const observed = new WeakMap<LexicalInput, Map<number, number>>();

/** Count the features of one document into the statistics (each bucket once per document). */
export function observe(stats: LexicalStats, input: LexicalInput): void {
  const counted = features(input);
  observed.set(input, counted);
  const seen = new Set<number>();
  for (const h of counted.keys()) seen.add(h % DF_BUCKETS);
  for (const bucket of seen) stats.df[bucket]!++;
  stats.documents++;
}

/** The L2-normalised vector of one text under the given statistics. */
export function embedLexical(stats: LexicalStats, input: LexicalInput, dimension = LEXICAL_DIMENSION): Float32Array {
  const vector = new Float32Array(dimension);
  const n = stats.documents;
  const counted = observed.get(input) ?? features(input);
  observed.delete(input);
  for (const [h, count] of counted) {
    const df = stats.df[h % DF_BUCKETS]!;
    const idf = Math.log((1 + n) / (1 + df)) + 1;
    const tf = count > 1 ? 1 + Math.log(count) : count;
    // A second hash of the same feature chooses the sign, so collisions cancel on average.
    const sign = (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 31) === 1 ? -1 : 1;
    vector[h % dimension]! += sign * tf * idf;
  }
  return normalise(vector);
}

export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** A rough token count (about four characters per token), used by estimates. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function statsToBlob(stats: LexicalStats): Buffer {
  return Buffer.from(stats.df.buffer, stats.df.byteOffset, stats.df.byteLength);
}

export function statsFromBlob(documents: number, blob: Buffer, countedThrough = 0): LexicalStats {
  const df = new Uint32Array(DF_BUCKETS);
  df.set(new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)).subarray(0, DF_BUCKETS));
  return { documents, countedThrough, df };
}
