/**
 * Cutting the records of one parsed page to the caps (caps.ts), where the page
 * is parsed (parse-page.ts: on the event loop or in a worker), so no oversize
 * value is ever copied back, stored or indexed. Text over its cap is cut on a
 * code point boundary and ends with "…"; a list over its cap keeps its first
 * items; an identifier or URL over its cap is left out (a cut one would name
 * another work), and a record whose own id is over it is left out as unusable.
 * Every cut is noted (which record, which field, the cap) for the run log and
 * the search record.
 */
import { sizeWords } from '../util/words.js';
import type { SourceCaps } from './caps.js';
import type { Author, NormalizedRecord, ParsedPage, Relation } from './types.js';
import type { CapNote } from '../wire/executions.js';

export type { CapNote } from '../wire/executions.js';

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/** UTF-8 size of a string, or its length when that surely fits `cap` (a UTF-16 unit is 1 to 3 bytes). */
function byteSize(text: string, cap: number): number {
  return text.length * 3 <= cap ? text.length : Buffer.byteLength(text);
}

/**
 * `text` cut to at most `cap` UTF-8 bytes, "…" included, on a code point boundary. Only the first
 * `cap` UTF-16 units are encoded: each is at least one byte, so the cut lies among them.
 */
export function cutToBytes(text: string, cap: number): string {
  let head = text.slice(0, cap);
  // A surrogate pair split by the slice: its first half alone is no character.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const bytes = Buffer.from(head, 'utf8');
  let end = Math.max(0, cap - ELLIPSIS_BYTES);
  // Back off continuation bytes (10xxxxxx): the cut falls before the character they belong to.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.toString('utf8', 0, end) + ELLIPSIS;
}

/**
 * Caps one record in place (the parser's own objects: nothing else holds them), noting each cut
 * once per field and unit, and counting what JSON could make of it: at most 6 bytes a UTF-16 unit
 * (an escaped control character) and 200 bytes of keys and punctuation an item, so the record's
 * size is only measured when this bound could pass its cap.
 */
class RecordCapper {
  private readonly byField = new Map<string, CapNote>();
  units = 0;
  items = 0;

  constructor(
    private readonly record: string,
    private readonly notes: CapNote[],
    readonly caps: SourceCaps,
  ) {}

  note(field: string, action: CapNote['action'], cap: number, unit: CapNote['unit'], had: number): void {
    const key = `${field} ${unit}`;
    const seen = this.byField.get(key);
    if (seen) {
      seen.count++;
      seen.had = Math.max(seen.had, had);
      return;
    }
    const note: CapNote = { record: this.record, field, action, cap, unit, had, count: 1 };
    this.byField.set(key, note);
    this.notes.push(note);
  }

  /** Free text: cut to the cap. */
  text<O extends object>(owner: O, key: keyof O, cap: number, field: string): void {
    const value = owner[key];
    if (typeof value !== 'string') return;
    const size = byteSize(value, cap);
    if (size > cap) {
      this.note(field, 'cut', cap, 'bytes', size);
      (owner[key] as string) = cutToBytes(value, cap);
    }
    this.units += (owner[key] as string).length;
  }

  /** An identifier or URL: whole, or left out. */
  identifier<O extends object>(owner: O, key: keyof O, field: string): void {
    const value = owner[key];
    if (typeof value !== 'string') return;
    const size = byteSize(value, this.caps.textBytes);
    if (size > this.caps.textBytes) {
      this.note(field, 'left_out', this.caps.textBytes, 'bytes', size);
      delete owner[key];
      return;
    }
    this.units += value.length;
  }

  /** A list cut to its first `cap` items. */
  list(items: unknown[], cap: number, unit: CapNote['unit'], field: string): void {
    if (items.length > cap) {
      this.note(field, 'cut', cap, unit, items.length);
      items.length = cap;
    }
    this.items += items.length;
  }

  /** Whether the record could be over `cap` as JSON, by the bound. */
  mayPass(cap: number): boolean {
    return 6 * this.units + 200 * this.items + 2048 > cap;
  }
}

function capAuthor(a: Author, c: RecordCapper): void {
  c.text(a, 'name', c.caps.authorNameBytes, 'author name');
  c.text(a, 'given', c.caps.authorNameBytes, 'author name');
  c.text(a, 'family', c.caps.authorNameBytes, 'author name');
  c.identifier(a, 'orcid', 'author orcid');
  const affiliations = a.affiliations;
  if (!affiliations) return;
  c.list(affiliations, c.caps.affiliationsPerAuthor, 'items', 'affiliations');
  for (let i = 0; i < affiliations.length; i++) c.text(affiliations, i, c.caps.textBytes, 'affiliation');
}

function capRelation(r: Relation, c: RecordCapper): void {
  c.identifier(r, 'doi', 'relation doi');
  c.identifier(r, 'arxiv', 'relation arxiv');
  c.identifier(r, 'url', 'relation url');
  c.identifier(r, 'date', 'relation date');
  c.text(r, 'label', c.caps.textBytes, 'relation label');
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * The record within `recordBytes`: the author list, then relations, then categories keep as
 * many of their first items as fit. With every field already within its cap, the rest of a
 * record is far below recordBytes, so cutting these lists always brings it under.
 */
function fitRecord(record: NormalizedRecord, c: RecordCapper): void {
  const cap = c.caps.recordBytes;
  if (!c.mayPass(cap)) return;
  const size = jsonBytes(record);
  if (size <= cap) return;
  c.note('record', 'cut', cap, 'bytes', size);
  for (const key of ['authors', 'relations', 'categories'] as const) {
    const items = record[key] as unknown[];
    // The record without this list, then each item kept costs its JSON and a comma.
    let used = jsonBytes({ ...record, [key]: [] });
    let keep = 0;
    for (; keep < items.length; keep++) {
      const cost = jsonBytes(items[keep]) + 1;
      if (used + cost > cap) break;
      used += cost;
    }
    items.length = keep;
    if (used <= cap) return;
  }
}

/** Caps one record in place; false when its own id is over the caps (it is then left out). */
export function capRecord(record: NormalizedRecord, caps: SourceCaps, notes: CapNote[]): boolean {
  const idSize = byteSize(record.nativeId, caps.textBytes);
  if (idSize > caps.textBytes) {
    notes.push({ record: `${record.nativeId.slice(0, 199)}…`, field: 'native id', action: 'left_out', cap: caps.textBytes, unit: 'bytes', had: idSize, count: 1 });
    return false;
  }
  const c = new RecordCapper(record.nativeId, notes, caps);
  c.units += record.nativeId.length;
  c.text(record, 'title', caps.titleBytes, 'title');
  c.text(record, 'abstract', caps.abstractBytes, 'abstract');
  c.list(record.authors, caps.authors, 'names', 'authors');
  for (const a of record.authors) capAuthor(a, c);
  c.text(record, 'venue', caps.textBytes, 'venue');
  c.text(record, 'license', caps.textBytes, 'license');
  c.text(record, 'type', caps.textBytes, 'type');
  c.identifier(record, 'publicationDate', 'publication date');
  c.identifier(record, 'doi', 'doi');
  for (const key of Object.keys(record.ids)) c.identifier(record.ids, key, `ids.${key}`);
  c.identifier(record, 'landingUrl', 'landing url');
  c.identifier(record, 'pdfUrl', 'pdf url');
  c.list(record.categories, caps.listItems, 'items', 'categories');
  for (let i = 0; i < record.categories.length; i++) c.text(record.categories, i, caps.textBytes, 'category');
  c.list(record.relations, caps.listItems, 'items', 'relations');
  for (const r of record.relations) capRelation(r, c);
  fitRecord(record, c);
  return true;
}

/**
 * The page's records within the caps, in place; answers the notes. A record left out counts as
 * unusable. Anything a parser answers without records (PubMed's esearch) is left as it is.
 */
export function capPage<T>(page: T, caps: SourceCaps): CapNote[] {
  const parsed = page as Partial<ParsedPage> | null;
  if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.records)) return [];
  const notes: CapNote[] = [];
  const kept = parsed.records.filter((record) => capRecord(record, caps, notes));
  const leftOut = parsed.records.length - kept.length;
  if (leftOut > 0) {
    parsed.records = kept;
    parsed.unusable = (parsed.unusable ?? 0) + leftOut;
  }
  return notes;
}

/** One note in a sentence: "2101.00001 abstract cut to 64 KiB (was 50 MiB)". */
export function capNoteText(note: CapNote): string {
  const many = note.count > 1 ? ` (${note.count} values)` : '';
  if (note.field === 'native id') return `a record left out: its id is over ${sizeWords(note.cap)} (${sizeWords(note.had)})`;
  if (note.action === 'left_out') return `${note.record} ${note.field} left out: over ${sizeWords(note.cap)} (${sizeWords(note.had)})${many}`;
  if (note.field === 'record') return `${note.record} cut to the ${sizeWords(note.cap)} record cap (was ${sizeWords(note.had)}) by keeping the first authors, relations and categories that fit`;
  if (note.unit === 'bytes') return `${note.record} ${note.field} cut to ${sizeWords(note.cap)} (was ${sizeWords(note.had)})${many}`;
  return `${note.record} ${note.field} cut to the first ${note.cap} ${note.unit} (of ${note.had})${many}`;
}
