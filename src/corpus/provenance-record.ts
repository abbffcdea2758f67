/**
 * A source's record as its provenance row stores it: an RFC 7396 merge patch
 * against the record its document's columns describe (migration 32's
 * document_canonical_records), when one can give the record back exactly,
 * else the whole record. A first sighting's record is mostly the document
 * made from it; its patch is its source, native id and what the document
 * does not keep (~0.1 kB instead of ~1.9 kB written per record).
 *
 * The canonical record below mirrors the migration's SQL: a key left out of a
 * patch must read back from the document exactly as the record holds it.
 * When in doubt a key goes into the patch, which is always right; the only
 * records stored whole are those a merge patch cannot express (a null value
 * inside an object: a patch's null means "remove") or one made here could get
 * wrong (NaN, an infinity or toJSON inside an object; a key named __proto__).
 */
import type { NormalizedRecord } from '../sources/types.js';
import type { DocumentRow } from './read.js';

/** The document columns the canonical record is made of (migration 32's view reads the same ones). */
export type CanonicalColumns = Pick<
  DocumentRow,
  | 'title'
  | 'abstract'
  | 'authors_json'
  | 'publication_date'
  | 'date_precision'
  | 'venue'
  | 'doi'
  | 'ids_json'
  | 'landing_url'
  | 'pdf_url'
  | 'categories_json'
  | 'license'
  | 'open_access'
  | 'doc_type'
  | 'is_retracted'
  | 'relations_json'
>;

/** A record's lists as JSON text, as a document stores them (merge compares and reuses them). */
export interface RecordLists {
  authors_json: string;
  ids_json: string;
  categories_json: string;
  relations_json: string;
}

export const listsOf = (record: NormalizedRecord): RecordLists => ({
  authors_json: JSON.stringify(record.authors),
  ids_json: JSON.stringify(record.ids),
  categories_json: JSON.stringify(record.categories),
  relations_json: JSON.stringify(record.relations),
});

type Kind = 'text' | 'json' | 'flag' | 'bool';
/** Record key, column, how the canonical record renders it (migration 32). */
const CANONICAL: readonly (readonly [string, keyof CanonicalColumns, Kind])[] = [
  ['title', 'title', 'text'],
  ['abstract', 'abstract', 'text'],
  ['authors', 'authors_json', 'json'],
  ['publicationDate', 'publication_date', 'text'],
  ['datePrecision', 'date_precision', 'text'],
  ['venue', 'venue', 'text'],
  ['doi', 'doi', 'text'],
  ['ids', 'ids_json', 'json'],
  ['landingUrl', 'landing_url', 'text'],
  ['pdfUrl', 'pdf_url', 'text'],
  ['categories', 'categories_json', 'json'],
  ['license', 'license', 'text'],
  ['openAccess', 'open_access', 'flag'],
  ['type', 'doc_type', 'text'],
  ['isRetracted', 'is_retracted', 'bool'],
  ['relations', 'relations_json', 'json'],
];
const CANONICAL_KEYS = new Set(CANONICAL.map(([key]) => key));

/** Thrown inside diff(): the record cannot be a patch. */
const WHOLE = Symbol('whole');

/** No lone surrogate (String.prototype.isWellFormed, Node 20; not in this TypeScript's lib). */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const own = (o: Record<string, unknown>, key: string) => Object.hasOwn(o, key) && o[key] !== undefined && typeof o[key] !== 'function';

/**
 * `value` when JSON.stringify writes it as it is, so a patch made here carries it exactly; else the
 * record is stored whole. Not NaN or an infinity (written as null, which a patch reads as "remove"),
 * nor an object with toJSON (written as what that answers).
 */
function asItself(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw WHOLE;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') throw WHOLE;
  return value;
}

/** A key a patch object made here cannot hold: assigned, __proto__ sets the object's prototype (JSON.parse and spreads make it an own key). */
const PROTO = '__proto__';

/** A patch value that creates `value` where the target holds no object: only if no member of an object in it is null. */
function created(value: unknown): unknown {
  if (value === null) throw WHOLE; // a patch's null removes
  asItself(value);
  if (isObject(value)) {
    for (const key in value) {
      if (value[key] === null) throw WHOLE;
      asItself(value[key]);
      if (isObject(value[key])) created(value[key]);
    }
  }
  return value;
}

/** The merge patch turning `target` (parsed JSON) into `value` (as JSON.stringify sees it). */
function diff(target: unknown, value: unknown): unknown {
  if (!isObject(value) || !isObject(target)) return created(value);
  asItself(value);
  if (Object.hasOwn(target, PROTO) || Object.hasOwn(value, PROTO)) throw WHOLE;
  const patch: Record<string, unknown> = {};
  for (const key in target) if (!own(value, key)) patch[key] = null;
  for (const key in value) {
    if (!own(value, key)) continue;
    const v = value[key];
    if (Object.hasOwn(target, key)) {
      if (JSON.stringify(target[key]) !== JSON.stringify(v)) patch[key] = diff(target[key], v);
    } else patch[key] = created(v);
  }
  return patch;
}

/** The canonical rendering of one column, parsed (what the migration's json_object holds). */
function canonicalValue(kind: Kind, column: unknown): unknown {
  if (kind === 'json') return JSON.parse(column as string);
  if (kind === 'flag') return column === null ? null : column === 1;
  if (kind === 'bool') return Boolean(column);
  return column;
}

/**
 * The record's patch against `doc` (the document as it stands when the row is
 * written) as JSON text, or undefined when it must be stored whole.
 * `madeFrom`: the document was just inserted from this very record (its JSON
 * columns are this record's lists, stringified), so those need no comparison.
 * `lists`: the record's lists already stringified (listsOf), to compare without doing it again.
 */
export function recordPatch(record: NormalizedRecord, doc: CanonicalColumns, madeFrom = false, lists?: RecordLists): string | undefined {
  const fields = record as unknown as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  try {
    for (const [key, column, kind] of CANONICAL) {
      const value = fields[key];
      const stored = doc[column];
      if (value === undefined || typeof value === 'function') {
        patch[key] = null; // the canonical record always has the key
        continue;
      }
      if (kind === 'text') {
        // A string the column holds exactly (not one with a lone surrogate, which it would not keep:
        // `doc` holds what merge wrote, not what the column kept).
        if (typeof value === 'string' && value === stored && wellFormed(value)) continue;
        if (value === null && stored === null) continue;
        patch[key] = diff(stored, value);
      } else if (kind === 'json') {
        if (madeFrom) continue;
        const text = (lists as Record<string, string | undefined> | undefined)?.[column] ?? JSON.stringify(value);
        if (text === stored) continue;
        patch[key] = text === undefined ? null : diff(canonicalValue(kind, stored), JSON.parse(text));
      } else {
        const canonical = canonicalValue(kind, stored);
        if (value === canonical) continue;
        patch[key] = diff(canonical, value);
      }
    }
    for (const key in fields) {
      if (CANONICAL_KEYS.has(key)) continue;
      if (key === PROTO) throw WHOLE;
      if (own(fields, key)) patch[key] = created(fields[key]);
    }
  } catch (error) {
    if (error === WHOLE) return undefined;
    throw error;
  }
  return JSON.stringify(patch);
}
