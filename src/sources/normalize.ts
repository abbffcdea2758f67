/**
 * Normalization shared by adapters and the corpus: DOIs, arXiv ids, dates,
 * names, titles, markup. Identity keys come from here, so one paper seen by
 * several sources reduces to the same keys.
 */
import type { Author, DatePrecision, NormalizedRecord } from './types.js';
import { NAMED_ENTITIES } from './entities.js';

/** 10.1234/ABC from any common spelling (https://doi.org/…, doi:…), lower case; undefined if not a DOI. */
export function normalizeDoi(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  let doi = String(raw).trim();
  doi = doi.replace(/^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i, '').replace(/^doi:\s*/i, '');
  try {
    if (/%[0-9a-f]{2}/i.test(doi)) doi = decodeURIComponent(doi);
  } catch {
    // keep as is
  }
  doi = doi.trim().toLowerCase();
  return /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : undefined;
}

/** arXiv id and version from an id, abs/pdf URL or "arXiv:" form. */
export function normalizeArxivId(raw: string | null | undefined): { id: string; version?: string } | undefined {
  if (!raw) return undefined;
  const text = String(raw).trim().replace(/^arxiv:/i, '');
  const modern = /(\d{4}\.\d{4,5})(v\d+)?/.exec(text);
  if (modern) return { id: modern[1]!, version: modern[2] };
  const legacy = /([a-z-]+(?:\.[a-z-]{2})?\/\d{7})(v\d+)?/i.exec(text);
  if (legacy) return { id: legacy[1]!.toLowerCase(), version: legacy[2] };
  return undefined;
}

export function normalizePmcid(raw: string | number | null | undefined): string | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const m = /(?:pmc)?\s*(\d+)/i.exec(String(raw));
  return m ? `PMC${m[1]}` : undefined;
}

export function normalizePmid(raw: string | number | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const m = /^\s*(\d{1,9})\s*$/.exec(String(raw));
  return m ? String(Number(m[1])) : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date with its precision from "2020", "2020-05", "2020-05-17", an ISO timestamp or date-parts. */
export function parseDate(raw: unknown): { date: string; precision: DatePrecision } | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (Array.isArray(raw)) {
    const parts = (Array.isArray(raw[0]) ? raw[0] : raw).map(Number).filter((n: number) => Number.isFinite(n));
    return fromParts(parts[0], parts[1], parts[2]);
  }
  if (typeof raw === 'number') return fromParts(raw);
  const text = String(raw).trim();
  const m = /^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?/.exec(text);
  if (!m) return undefined;
  return fromParts(Number(m[1]), m[2] ? Number(m[2]) : undefined, m[3] ? Number(m[3]) : undefined);
}

export function fromParts(year?: number, month?: number, day?: number): { date: string; precision: DatePrecision } | undefined {
  if (!year || year < 1000 || year > 9999) return undefined;
  if (!month || month < 1 || month > 12) return { date: String(year), precision: 'year' };
  if (!day || day < 1 || day > 31) return { date: `${year}-${pad(month)}`, precision: 'month' };
  return { date: `${year}-${pad(month)}-${pad(day)}`, precision: 'day' };
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

/** "Jan" or "01" → 1. */
export function monthNumber(raw: string | number | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'number' || /^\d+$/.test(raw)) return Number(raw);
  return MONTHS[raw.slice(0, 3).toLowerCase()];
}

/** Is a (possibly partial) date inside [from, to]? A partial date counts if any day of it is inside. */
export function dateInWindow(date: string | undefined, from?: string, to?: string): boolean {
  if (!from && !to) return true;
  if (!date) return false;
  const start = date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date;
  const end = date.length === 4 ? `${date}-12-31` : date.length === 7 ? `${date}-31` : date;
  if (from && end < from) return false;
  if (to && start > to) return false;
  return true;
}

// The few names also seen in capitals (&AMP;); every other name is case-sensitive (&Alpha; ≠ &alpha;).
const ANY_CASE = new Set(['amp', 'lt', 'gt', 'quot', 'apos', 'nbsp']);

/** Numeric references and the named ones of HTML 4 (entities.ts) to characters; anything else is left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const lower = name.toLowerCase();
    return NAMED_ENTITIES.get(name) ?? (ANY_CASE.has(lower) ? NAMED_ENTITIES.get(lower) : undefined) ?? whole;
  });
}

/** "Family, Given" or "Given Family" → parts. */
export function splitName(name: string): { given?: string; family?: string } {
  const trimmed = name.replace(/\s+/g, ' ').trim();
  if (trimmed.includes(',')) {
    // "Jimenez, Victor, Jr.", "Jimenez, Jr., Victor" and "Jimenez Jr., Victor": the suffix is neither family nor given name.
    const [family, given] = trimmed
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !NAME_SUFFIX.test(s));
    return { family: family ? withoutSuffix(family) : undefined, given: given || undefined };
  }
  const parts = trimmed.split(' ');
  // A generational suffix ("Victor M. Jimenez Jr.") is not the family name: the word before it is.
  // The name keeps it; V is left out (it is as often an initial).
  if (parts.length > 1 && NAME_SUFFIX.test(parts[parts.length - 1]!)) parts.pop();
  if (parts.length === 1) return { family: parts[0] };
  return { given: parts.slice(0, -1).join(' '), family: parts[parts.length - 1] };
}

/** "Jimenez Jr." → "Jimenez"; a lone word stays as it is. */
function withoutSuffix(family: string): string {
  const words = family.split(' ');
  return words.length > 1 && NAME_SUFFIX.test(words[words.length - 1]!) ? words.slice(0, -1).join(' ') : family;
}

// Roman numerals only in capitals, as suffixes are written: "Ii" is a Japanese family name (井伊).
const NAME_SUFFIX = { test: (word: string) => /^(?:jr|sr|jnr|snr)\.?$/i.test(word) || /^(?:II|III|IV)$/.test(word) };

export function author(name: string, extra: Partial<Author> = {}): Author {
  const clean = name.replace(/\s+/g, ' ').trim();
  const parts = extra.family || extra.given ? {} : splitName(clean);
  const result: Author = { name: clean, ...parts, ...extra };
  for (const k of Object.keys(result) as (keyof Author)[]) if (result[k] === undefined || result[k] === '') delete result[k];
  return result;
}

/** ISO 7064 MOD 11-2, the check character of an ORCID iD. */
function orcidCheckOk(digits: string): boolean {
  let total = 0;
  for (const d of digits.slice(0, 15)) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits[15]!.toUpperCase() === (check === 10 ? 'X' : String(check));
}

/**
 * 0000-0002-1825-0097 from an iD or its URL. Also the 16 characters without hyphens, the form
 * NLM's PubMed DTD gives as its example (<Identifier Source="ORCID">0000000179841889</Identifier>):
 * accepted only as the whole value (optionally after an orcid.org URL) and with a valid check
 * character, so no other long number passes for an iD.
 */
export function normalizeOrcid(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const m = /(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/i.exec(raw);
  if (m) return m[1]!.toUpperCase();
  const bare = /^\s*(?:(?:https?:\/\/)?(?:www\.)?orcid\.org\/)?(\d{15}[\dX])\s*$/i.exec(raw);
  if (!bare || !orcidCheckOk(bare[1]!)) return undefined;
  const d = bare[1]!.toUpperCase();
  return `${d.slice(0, 4)}-${d.slice(4, 8)}-${d.slice(8, 12)}-${d.slice(12)}`;
}

// TeX as sources leave it in titles and names (INSPIRE, ADS, dblp, arXiv): an accent command keeps
// its letter ("Schr{\"o}dinger", "\'{E}cole"), a letter command is its letter, a formatting command
// disappears and keeps its argument ("\emph{in vivo}"), any other command is its own name
// ("$\alpha$-synuclein" reads "alpha synuclein").
const TEX_ACCENT = /\\[`'^"~=.uvHckrbd]\s*\{?\s*(?:\\([ij])\b|([A-Za-z]))\s*\}?/g;
const TEX_LETTER: Record<string, string> = { ss: 'ss', o: 'o', O: 'O', aa: 'a', AA: 'A', ae: 'ae', AE: 'AE', oe: 'oe', OE: 'OE', l: 'l', L: 'L', i: 'i', j: 'j' };
const TEX_FORMAT = new Set(['emph', 'textit', 'textbf', 'textrm', 'textsc', 'texttt', 'textsf', 'textup', 'textnormal', 'text', 'mathrm', 'mathbf', 'mathit', 'mathsf', 'mathtt', 'mathcal', 'mathbb', 'mathfrak', 'boldsymbol', 'it', 'bf', 'rm', 'em', 'sc', 'sf', 'tt', 'mbox', 'hbox', 'textsubscript', 'textsuperscript', 'ensuremath', 'mathnormal', 'left', 'right']);
// Letters NFKD leaves whole: folded by hand so "Søren Ødegård" meets "Soren Odegard".
const WHOLE_LETTERS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ß: 'ss', æ: 'ae', œ: 'oe', ı: 'i', ħ: 'h' };

/** TeX commands to the text they stand for (see TEX_ACCENT above); text without a backslash is returned as is. */
export function texToText(text: string): string {
  if (!text.includes('\\')) return text;
  return text
    .replace(TEX_ACCENT, (_m, dotless: string | undefined, letter: string | undefined) => dotless ?? letter ?? '')
    .replace(/\\([A-Za-z]+)\s*/g, (_m, name: string) => TEX_LETTER[name] ?? (TEX_FORMAT.has(name) ? '' : `${name} `))
    .replace(/\\(.)/g, '$1');
}

/**
 * Lower case, markup, accents and punctuation removed: the title half of the fallback identity,
 * and how titles and names are compared. Markup means HTML tags and entities ("&lt;i&gt;",
 * "&amp;") and TeX (texToText), so a title reads the same from a source that strips them and
 * from one that does not.
 */
export function titleKey(title: string): string {
  let text = title.includes('&') ? decodeEntities(title) : title;
  text = texToText(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // Braces group in TeX ("{\"o}", "{BERT}"): they join, never separate.
    .replace(/[{}]/g, '');
  // Only what looks like a tag (markupToText's test): "p<0.05 in age>65" keeps its words.
  if (text.includes('<')) text = text.replace(TAG, (_tag, name: string) => (INLINE_TAGS.has(name.replace(/^[\w.-]*:/, '')) ? '' : ' '));
  if (/[^\x00-\x7f]/.test(text)) text = text.replace(/[øłđðþßæœıħ]/g, (c) => WHOLE_LETTERS[c]!);
  return text.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Family name of the first author, folded like titleKey. */
export function firstAuthorKey(authors: Author[]): string {
  const first = authors[0];
  if (!first) return '';
  return titleKey(first.family ?? splitName(first.name).family ?? first.name);
}

/** Does the record mention every keyword (case-insensitive) in title or abstract? */
export function matchesKeywords(record: Pick<NormalizedRecord, 'title' | 'abstract'>, keywords: string[]): boolean {
  if (keywords.length === 0) return true;
  const haystack = `${record.title} ${record.abstract ?? ''}`.toLowerCase();
  return keywords.every((k) => haystack.includes(k.toLowerCase()));
}

/** A record with empty collections filled and undefined fields dropped. */
export function makeRecord(fields: Omit<NormalizedRecord, 'ids' | 'categories' | 'relations'> & Partial<Pick<NormalizedRecord, 'ids' | 'categories' | 'relations'>>): NormalizedRecord {
  const record: NormalizedRecord = { ids: {}, categories: [], relations: [], ...fields };
  for (const k of Object.keys(record) as (keyof NormalizedRecord)[]) if (record[k] === undefined) delete record[k];
  for (const k of Object.keys(record.ids)) if (record.ids[k] === undefined || record.ids[k] === '') delete record.ids[k];
  record.categories = [...new Set(record.categories.filter(Boolean))];
  return record;
}

/** Query text the adapters send: the query plus keywords not already in it. */
export function combinedQuery(query: string, keywords: string[]): string {
  const lower = query.toLowerCase();
  const extra = keywords.filter((k) => k.trim() && !lower.includes(k.toLowerCase()));
  return [query.trim(), ...extra.map((k) => (/\s/.test(k) ? `"${k}"` : k))].filter(Boolean).join(' ');
}

/**
 * combinedQuery for sources whose query is Lucene syntax (Solr, Elasticsearch: PLOS, HAL, DOAJ,
 * Zenodo, CORE, Europe PMC, ADS), where "word:" names a field. A colon followed by a space or the
 * end is a title's punctuation ("COVID-19: a review"), never field syntax (title:word), so it is
 * sent as a space: read as a field it makes Solr refuse the search ("undefined field", HTTP 400)
 * or makes the search match nothing.
 */
export function fieldSyntaxQuery(query: string, keywords: string[]): string {
  return combinedQuery(query, keywords)
    .replace(/:(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Inline tags vanish ("CO<sub>2</sub>" → "CO2"); anything else that is a tag separates words.
// Namespace prefixes are ignored: Crossref sends JATS as <jats:sub>, formulas as <mml:…>. Wiley
// marks small capitals <scp> ("<scp>COVID</scp>‐19"); MathML tokens sit inside a word ("x<mml:msub>…").
const INLINE_TAGS = new Set([
  'i', 'b', 'u', 'em', 'strong', 'sub', 'sup', 'sc', 'scp', 'span', 'a', 'small', 'tt', 'bold', 'italic', 'underline',
  'monospace', 'roman', 'sans-serif', 'strike', 'overline', 'inline-formula',
  'math', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mrow', 'msub', 'msup', 'msubsup', 'mover', 'munder', 'munderover', 'mstyle',
]);

// A tag's attributes are name="value" pairs (XML always, the markup sources send in practice):
// "<b and c>" in "a<b and c>d" has bare words, so it is text (a comparison), not a tag to cut out.
const TAG = /<\/?([a-z][\w.:-]*)(?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))*\s*\/?>/gi;

/**
 * HTML/JATS/MathML markup to plain text. Only things that look like tags
 * (`<name …>`, `</name>`) are removed, so a bare "p<0.05 … age>65" in an
 * abstract survives; entities are decoded after the tags are gone.
 */
export function markupToText(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const untagged = String(raw).replace(TAG, (_tag, name: string) => (INLINE_TAGS.has(name.toLowerCase().replace(/^[\w.-]*:/, '')) ? '' : ' '));
  const text = decodeEntities(untagged).replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

/**
 * The terms of a free-text query for sources filtered locally: words split on
 * white space, "quoted phrases" kept whole, the operator AND dropped (terms are
 * always AND-ed). Other boolean syntax is not interpreted.
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (m[1] ?? m[2] ?? '').replace(/^"+|"+$/g, '').replace(/\s+/g, ' ').trim();
    if (term && term !== 'AND') terms.push(term);
  }
  return terms;
}

/** Text a parser has already freed of markup: entities it left (numeric ones) decoded, white space collapsed. */
export function plainText(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = decodeEntities(String(raw)).replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}
