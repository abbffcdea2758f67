/**
 * Reading the JSON answers of search APIs: a body that is not JSON (or not an
 * object) is a ParseError naming the source, never a crash; fields that some
 * APIs send as one value or as a list are read as lists.
 */
import { ParseError } from './types.js';

/** The answer as an object, or a ParseError saying which source sent something else. */
export function parseJsonObject(text: string, sourceName: string): any {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError(`${sourceName} answered something that is not JSON.`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${sourceName} answered JSON that is not an object.`);
  return body;
}

/** One value, a list, or nothing → a list (dblp's hit and author, Solr's multi-valued fields). */
export function asArray<T = any>(value: T | T[] | null | undefined): T[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first non-empty string of a value that may be a string or a list of strings. */
export function firstString(value: unknown): string | undefined {
  for (const v of asArray(value as unknown)) {
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

/** A count that may come as a number, a numeric string, or Elasticsearch's { value }. */
export function countOf(value: unknown): number | undefined {
  const raw = value && typeof value === 'object' && 'value' in value ? (value as { value: unknown }).value : value;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
