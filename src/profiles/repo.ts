/** SQL of watch profiles, their name keys and their matches. */
import type { Database } from 'better-sqlite3';
import { PROVENANCE_RECORD_JSON } from '../corpus/repo.js';
import { perDatabase } from '../db/per-database.js';
import type { Basis } from './bases.js';
import type { ProfileFields, ProfileKind } from './schema.js';

export interface ProfileRow {
  id: number;
  kind: ProfileKind;
  name: string;
  display_name: string;
  orcid: string | null;
  orcid_cited: number;
  aliases_json: string;
  affiliations_json: string;
  field_hints_json: string;
  scanned_through_document_id: number;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface NameKeyRow {
  profile_id: number;
  name_key: string;
  source: 'name' | 'alias';
  variant: string;
}

export interface MatchRow {
  profile_id: number;
  document_id: number;
  basis: Basis;
  matched_author: string | null;
  evidence: string;
  matched_at_utc: string;
}

const columns = (f: ProfileFields) => [
  f.kind,
  f.name,
  f.display_name,
  f.orcid,
  f.orcid_cited ? 1 : 0,
  JSON.stringify(f.aliases),
  JSON.stringify(f.affiliations),
  JSON.stringify(f.field_hints),
];

export function insertProfile(db: Database, f: ProfileFields, now: string): number {
  const info = db
    .prepare(
      `INSERT INTO watch_profiles (kind, name, display_name, orcid, orcid_cited, aliases_json, affiliations_json, field_hints_json, created_at_utc, updated_at_utc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(...columns(f), now, now);
  return Number(info.lastInsertRowid);
}

/** Replace the fields; matches and the watermark start over, since what matches has changed. */
export function updateProfile(db: Database, id: number, f: ProfileFields, now: string): void {
  db.prepare(
    `UPDATE watch_profiles SET kind = ?, name = ?, display_name = ?, orcid = ?, orcid_cited = ?, aliases_json = ?, affiliations_json = ?,
       field_hints_json = ?, scanned_through_document_id = 0, updated_at_utc = ? WHERE id = ?`,
  ).run(...columns(f), now, id);
  db.prepare('DELETE FROM profile_matches WHERE profile_id = ?').run(id);
}

export function getProfile(db: Database, id: number): ProfileRow | undefined {
  return db.prepare('SELECT * FROM watch_profiles WHERE id = ?').get(id) as ProfileRow | undefined;
}

export function profileByOrcid(db: Database, orcid: string): ProfileRow | undefined {
  return db.prepare('SELECT * FROM watch_profiles WHERE orcid = ?').get(orcid) as ProfileRow | undefined;
}

export function listProfiles(db: Database, kind?: ProfileKind): ProfileRow[] {
  return (kind
    ? db.prepare('SELECT * FROM watch_profiles WHERE kind = ? ORDER BY id').all(kind)
    : db.prepare('SELECT * FROM watch_profiles ORDER BY id').all()) as ProfileRow[];
}

/** Deletes the profile; its name keys and matches go with it (foreign keys), documents stay. */
export function deleteProfile(db: Database, id: number): number {
  const matches = (db.prepare('SELECT COUNT(*) FROM profile_matches WHERE profile_id = ?').pluck().get(id) as number) ?? 0;
  db.prepare('DELETE FROM watch_profiles WHERE id = ?').run(id);
  return matches;
}

export function replaceNameKeys(db: Database, id: number, keys: Omit<NameKeyRow, 'profile_id'>[]): void {
  db.prepare('DELETE FROM profile_name_keys WHERE profile_id = ?').run(id);
  const insert = db.prepare('INSERT OR IGNORE INTO profile_name_keys (profile_id, name_key, source, variant) VALUES (?, ?, ?, ?)');
  for (const k of keys) insert.run(id, k.name_key, k.source, k.variant);
}

export function allNameKeys(db: Database): NameKeyRow[] {
  return db.prepare('SELECT * FROM profile_name_keys').all() as NameKeyRow[];
}

export interface CandidateDocument {
  id: number;
  title: string;
  authors_json: string;
  categories_json: string;
}

/** The next slice of documents above a watermark, in id order. */
export function documentsByRange(db: Database, afterId: number, limit: number): CandidateDocument[] {
  return db.prepare('SELECT id, title, authors_json, categories_json FROM documents WHERE id > ? ORDER BY id LIMIT ?').all(afterId, limit) as CandidateDocument[];
}

export function documentsByIds(db: Database, ids: number[]): CandidateDocument[] {
  const select = db.prepare('SELECT id, title, authors_json, categories_json FROM documents WHERE id = ?');
  return ids.map((id) => select.get(id) as CandidateDocument | undefined).filter((d): d is CandidateDocument => d !== undefined);
}

export function maxDocumentId(db: Database): number {
  return (db.prepare('SELECT COALESCE(MAX(id), 0) FROM documents').pluck().get() as number) ?? 0;
}

/** The statements matching runs once or more per document: prepared once per connection (preparing the record expression costs more than running it). */
const matchingStatements = perDatabase((db) => ({
  sourceRecords: db.prepare(`SELECT s.source, ${PROVENANCE_RECORD_JSON} AS record_json FROM document_sources s WHERE s.document_id = ?`),
  upsertMatch: db.prepare(
    `INSERT INTO profile_matches (profile_id, document_id, basis, matched_author, evidence, matched_at_utc) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, document_id) DO UPDATE SET basis = excluded.basis, matched_author = excluded.matched_author, evidence = excluded.evidence`,
  ),
}));

/** The source records of a document, where an ORCID cited outside an author record can be found. */
export function sourceRecordTexts(db: Database, documentId: number): { source: string; record_json: string }[] {
  return matchingStatements(db).sourceRecords.all(documentId) as { source: string; record_json: string }[];
}

export function upsertMatch(db: Database, m: MatchRow): void {
  matchingStatements(db).upsertMatch.run(m.profile_id, m.document_id, m.basis, m.matched_author, m.evidence, m.matched_at_utc);
}

/** Drop a document's matches to profiles it no longer matches (`keep`: the profile ids it matches now). */
export function dropStaleMatches(db: Database, documentId: number, keep: number[]): void {
  db.prepare('DELETE FROM profile_matches WHERE document_id = ? AND profile_id NOT IN (SELECT value FROM json_each(?))').run(documentId, JSON.stringify(keep));
}

/** Documents a run found that were stored before it (a run's new ones are matched by the watermark scan). */
export function knownDocumentsOfRun(db: Database, executionId: number): number[] {
  return db
    .prepare('SELECT document_id FROM execution_documents WHERE execution_id = ? GROUP BY document_id HAVING max(is_new) = 0')
    .pluck()
    .all(executionId) as number[];
}

export function advanceWatermarks(db: Database, ids: number[], through: number): void {
  const update = db.prepare('UPDATE watch_profiles SET scanned_through_document_id = MAX(scanned_through_document_id, ?) WHERE id = ?');
  for (const id of ids) update.run(through, id);
}

export function countMatches(db: Database, profileId: number): number {
  return db.prepare('SELECT COUNT(*) FROM profile_matches WHERE profile_id = ?').pluck().get(profileId) as number;
}

export function countByBasis(db: Database, profileId: number): { basis: Basis; n: number }[] {
  return db.prepare('SELECT basis, COUNT(*) AS n FROM profile_matches WHERE profile_id = ? GROUP BY basis').all(profileId) as { basis: Basis; n: number }[];
}

export interface MatchPageRow extends MatchRow {
  title: string;
  publication_date: string | null;
  doi: string | null;
  is_retracted: number;
  relations_json: string;
}

const MATCH_PAGE = `SELECT m.*, d.title, d.publication_date, d.doi, d.is_retracted, d.relations_json
  FROM profile_matches m JOIN documents d ON d.id = m.document_id WHERE m.profile_id = ?`;

/** Newest papers first, then by id, so pages are stable. */
export function matchPage(db: Database, profileId: number, basis: Basis | undefined, limit: number, offset: number): MatchPageRow[] {
  return (basis
    ? db.prepare(`${MATCH_PAGE} AND m.basis = ? ORDER BY d.sort_date DESC, d.id DESC LIMIT ? OFFSET ?`).all(profileId, basis, limit, offset)
    : db.prepare(`${MATCH_PAGE} ORDER BY d.sort_date DESC, d.id DESC LIMIT ? OFFSET ?`).all(profileId, limit, offset)) as MatchPageRow[];
}

/** Matched papers with a retraction flag or lifecycle relations recorded on them. */
export function matchesWithLifecycle(db: Database, profileId: number): MatchPageRow[] {
  return db
    .prepare(
      `${MATCH_PAGE} AND (d.is_retracted = 1 OR d.relations_json <> '[]' OR EXISTS (SELECT 1 FROM lifecycle_events e WHERE e.document_id = d.id))
       ORDER BY d.sort_date DESC, d.id DESC`,
    )
    .all(profileId) as MatchPageRow[];
}

export function matchesForDocument(db: Database, documentId: number): (MatchRow & { profile_name: string; kind: ProfileKind })[] {
  return db
    .prepare(
      `SELECT m.*, p.name AS profile_name, p.kind FROM profile_matches m JOIN watch_profiles p ON p.id = m.profile_id
       WHERE m.document_id = ? ORDER BY m.profile_id`,
    )
    .all(documentId) as (MatchRow & { profile_name: string; kind: ProfileKind })[];
}

export function documentExists(db: Database, id: number): boolean {
  return db.prepare('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
}

/** Routines whose entity follows this profile. */
export function routinesFollowing(db: Database, profileId: number): number[] {
  return db
    .prepare(`SELECT id FROM routines WHERE entity_json IS NOT NULL AND json_extract(entity_json, '$.profile_id') = ? ORDER BY id`)
    .pluck()
    .all(profileId) as number[];
}
