/** SQL of the embeddings side: canonical vectors, runs, lane statistics, index state. */
import type { Database } from 'better-sqlite3';
import { ownerColumns, type OwnedRow } from '../claims/rows.js';

export type RunState = 'running' | 'completed' | 'cancelled' | 'failed' | 'interrupted';

export interface RunRow {
  id: number;
  model: string;
  trigger: string;
  state: RunState;
  total: number;
  embedded: number;
  tokens: number;
  error: string | null;
  owner_runtime_id: string | null;
  /** Not part of any answer (views drop them): only recovery reads them (claims/rows.ts). */
  owner_pid?: number | null;
  owner_boot_id?: string | null;
  owner_pid_start?: number | null;
  started_at_utc: string;
  finished_at_utc: string | null;
}

export interface DocumentText {
  id: number;
  title: string;
  abstract: string | null;
}

export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copy: the Buffer may share a pool and need not be 4-byte aligned.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

export function countDocuments(db: Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
}

export function documentExists(db: Database, id: number): boolean {
  return db.prepare('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
}

/** Which of `ids` are papers of the corpus, in one query however many are asked. */
export function existingDocumentIds(db: Database, ids: number[]): Set<number> {
  if (ids.length === 0) return new Set();
  return new Set(db.prepare('SELECT d.id FROM json_each(?) j JOIN documents d ON d.id = j.value').pluck().all(JSON.stringify(ids)) as number[]);
}

export function countVectors(db: Database, model: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM embedding_vectors WHERE model = ?').get(model) as { n: number }).n;
}

/** How many of `ids` have a vector for `model` (ids taken in chunks, under SQLite's parameter limit). */
export function countVectorsAmong(db: Database, model: string, ids: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    n += (db.prepare(`SELECT COUNT(*) AS n FROM embedding_vectors WHERE model = ? AND document_id IN (${chunk.map(() => '?').join(',')})`).get(model, ...chunk) as { n: number }).n;
  }
  return n;
}

export function vectorsByModel(db: Database): { model: string; count: number }[] {
  return db.prepare('SELECT model, COUNT(*) AS count FROM embedding_vectors GROUP BY model ORDER BY count DESC').all() as { model: string; count: number }[];
}

/** Documents with no vector for `model`, after `afterId`, in id order (keyset paging). */
export function documentsLacking(db: Database, model: string, afterId: number, limit: number): DocumentText[] {
  return db
    .prepare(
      `SELECT d.id, d.title, d.abstract FROM documents d
       WHERE d.id > ? AND NOT EXISTS (SELECT 1 FROM embedding_vectors v WHERE v.model = ? AND v.document_id = d.id)
       ORDER BY d.id LIMIT ?`,
    )
    .all(afterId, model, limit) as DocumentText[];
}

/** Of `ids`, those with no vector for `model`. */
export function lackingAmong(db: Database, model: string, ids: number[]): DocumentText[] {
  if (ids.length === 0) return [];
  return db
    .prepare(
      `SELECT d.id, d.title, d.abstract FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value
       WHERE NOT EXISTS (SELECT 1 FROM embedding_vectors v WHERE v.model = ? AND v.document_id = d.id) ORDER BY d.id`,
    )
    .all(JSON.stringify(ids), model) as DocumentText[];
}

/** How many of `ids` have no vector for `model` (without reading their texts). */
export function countLackingAmong(db: Database, model: string, ids: number[]): number {
  if (ids.length === 0) return 0;
  return db
    .prepare(
      `SELECT count(*) FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value
       WHERE NOT EXISTS (SELECT 1 FROM embedding_vectors v WHERE v.model = ? AND v.document_id = d.id)`,
    )
    .pluck()
    .get(JSON.stringify(ids), model) as number;
}

export function countLacking(db: Database, model: string): { count: number; chars: number } {
  return db
    .prepare(
      `SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(d.title) + COALESCE(LENGTH(d.abstract), 0) + 2), 0) AS chars FROM documents d
       WHERE NOT EXISTS (SELECT 1 FROM embedding_vectors v WHERE v.model = ? AND v.document_id = d.id)`,
    )
    .get(model) as { count: number; chars: number };
}

/** Every document's text in id order, page by page (fitting lane statistics). */
export function documentTexts(db: Database, afterId: number, limit: number): DocumentText[] {
  return db.prepare('SELECT id, title, abstract FROM documents WHERE id > ? ORDER BY id LIMIT ?').all(afterId, limit) as DocumentText[];
}

export function writeVectors(db: Database, model: string, rows: { id: number; vector: Float32Array }[], now: string): void {
  const upsert = db.prepare(
    `INSERT INTO embedding_vectors (model, document_id, dimension, vector, created_at_utc) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (model, document_id) DO UPDATE SET dimension = excluded.dimension, vector = excluded.vector, created_at_utc = excluded.created_at_utc`,
  );
  for (const row of rows) upsert.run(model, row.id, row.vector.length, vectorToBlob(row.vector), now);
}

export function readVector(db: Database, model: string, documentId: number): Float32Array | undefined {
  const row = db.prepare('SELECT vector FROM embedding_vectors WHERE model = ? AND document_id = ?').get(model, documentId) as { vector: Buffer } | undefined;
  return row ? blobToVector(row.vector) : undefined;
}

export function modelsOfDocument(db: Database, documentId: number): string[] {
  return (db.prepare('SELECT model FROM embedding_vectors WHERE document_id = ?').all(documentId) as { model: string }[]).map((r) => r.model);
}

/** Iterate the canonical vectors of a model (the brute-force fallback and the index rebuild). */
export function* iterateVectors(db: Database, model: string, ids?: number[]): Generator<{ document_id: number; vector: Buffer }> {
  if (ids) {
    yield* db
      .prepare('SELECT v.document_id, v.vector FROM json_each(?) j CROSS JOIN embedding_vectors v ON v.model = ? AND v.document_id = j.value')
      .iterate(JSON.stringify(ids), model) as Iterable<{ document_id: number; vector: Buffer }>;
  } else {
    yield* db.prepare('SELECT document_id, vector FROM embedding_vectors WHERE model = ?').iterate(model) as Iterable<{ document_id: number; vector: Buffer }>;
  }
}

export interface StoredStats {
  documents: number;
  /** The highest document id counted: every document up to it has been counted once. */
  counted_through: number;
  data: Buffer;
}

export function readStats(db: Database, model: string): StoredStats | undefined {
  return db.prepare('SELECT documents, counted_through, data FROM embedding_stats WHERE model = ?').get(model) as StoredStats | undefined;
}

export function writeStats(db: Database, model: string, stats: StoredStats, now: string): void {
  db.prepare(
    `INSERT INTO embedding_stats (model, documents, counted_through, data, updated_at_utc) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (model) DO UPDATE SET documents = excluded.documents, counted_through = excluded.counted_through, data = excluded.data,
       updated_at_utc = excluded.updated_at_utc`,
  ).run(model, stats.documents, stats.counted_through, stats.data, now);
}

export function startRun(db: Database, model: string, trigger: string, total: number, runtimeId: string, now: string): number {
  return Number(
    db
      .prepare(
        `INSERT INTO embedding_runs (model, trigger, state, total, owner_runtime_id, owner_pid, owner_boot_id, owner_pid_start, started_at_utc)
         VALUES (@model, @trigger, 'running', @total, @runtimeId, @owner_pid, @owner_boot_id, @owner_pid_start, @now)`,
      )
      .run({ model, trigger, total, runtimeId, now, ...ownerColumns() }).lastInsertRowid,
  );
}

export function progressRun(db: Database, id: number, embedded: number, tokens: number): void {
  db.prepare('UPDATE embedding_runs SET embedded = ?, tokens = ? WHERE id = ?').run(embedded, tokens, id);
}

export function finishRun(db: Database, id: number, state: RunState, error: string | null, now: string): void {
  db.prepare('UPDATE embedding_runs SET state = ?, error = ?, finished_at_utc = ? WHERE id = ?').run(state, error, now, id);
}

export function latestRun(db: Database): RunRow | undefined {
  return db.prepare('SELECT * FROM embedding_runs ORDER BY id DESC LIMIT 1').get() as RunRow | undefined;
}

/** The two kinds of similarity run: embedding backfills and link scans (same owner columns). */
export type RunTable = 'embedding_runs' | 'link_scans';

export interface RunningOwner extends OwnedRow {
  id: number;
}

export function runningOwners(db: Database, table: RunTable): RunningOwner[] {
  return db.prepare(`SELECT id, owner_runtime_id, owner_pid, owner_boot_id, owner_pid_start FROM ${table} WHERE state = 'running' ORDER BY id`).all() as RunningOwner[];
}

/** Only a row still running changes: a run that finished meanwhile keeps its own end. */
export function markRunInterrupted(db: Database, table: RunTable, id: number, message: string, now: string): boolean {
  return db.prepare(`UPDATE ${table} SET state = 'interrupted', error = ?, finished_at_utc = ? WHERE id = ? AND state = 'running'`).run(message, now, id).changes === 1;
}

export interface IndexState {
  model: string;
  dimension: number;
  vectors: number;
  built_at_utc: string;
  /** The live generation of the index files (index-files.ts). */
  file_id: string | null;
  /** The file holds every vector change up to this seq of embedding_vector_changes. */
  through_seq: number;
  bytes: number;
}

export function readIndexState(db: Database): IndexState | undefined {
  return db.prepare('SELECT model, dimension, vectors, built_at_utc, file_id, through_seq, bytes FROM embedding_index_state WHERE id = 1').get() as IndexState | undefined;
}

/** Name a newly published generation and forget the changes it holds, in one transaction. */
export function writeIndexState(db: Database, state: IndexState): void {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO embedding_index_state (id, model, dimension, vectors, built_at_utc, file_id, through_seq, bytes)
       VALUES (1, @model, @dimension, @vectors, @built_at_utc, @file_id, @through_seq, @bytes)
       ON CONFLICT (id) DO UPDATE SET model = excluded.model, dimension = excluded.dimension, vectors = excluded.vectors,
         built_at_utc = excluded.built_at_utc, file_id = excluded.file_id, through_seq = excluded.through_seq, bytes = excluded.bytes`,
    ).run(state);
    db.prepare('DELETE FROM embedding_vector_changes WHERE seq <= ?').run(state.through_seq);
  })();
}

export function clearIndexState(db: Database): void {
  db.prepare('DELETE FROM embedding_index_state').run();
}

/** The highest change seq ever given (pruned rows included): what a build started now holds everything up to. */
export function lastChangeSeq(db: Database): number {
  return (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'embedding_vector_changes'").pluck().get() as number | undefined) ?? 0;
}

/** Documents whose vector of `model` changed after `seq` (written, re-embedded or deleted), with the last seq read. */
export function changesSince(db: Database, model: string, seq: number): { documentIds: number[]; through: number } {
  const rows = db.prepare('SELECT seq, document_id FROM embedding_vector_changes WHERE seq > ? AND model = ? ORDER BY seq').all(seq, model) as { seq: number; document_id: number }[];
  return { documentIds: [...new Set(rows.map((r) => r.document_id))], through: rows.length ? rows[rows.length - 1]!.seq : seq };
}

/** How many changes of `model` came after `seq` (a build is due when they are many). */
export function countChangesSince(db: Database, model: string, seq: number): number {
  return db.prepare('SELECT count(*) FROM embedding_vector_changes WHERE seq > ? AND model = ?').pluck().get(seq, model) as number;
}

/** The canonical vectors of some documents, by id (a document without one is absent). */
export function readVectors(db: Database, model: string, ids: number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (ids.length === 0) return out;
  for (const row of iterateVectors(db, model, ids)) out.set(row.document_id, blobToVector(row.vector));
  return out;
}

/** Title, year, identifiers and sources of some documents, for answers. */
export function documentSummaries(db: Database, ids: number[]): Map<number, { id: number; title: string; year: number | null; doi: string | null; arxiv_id: string | null; sources: string[] }> {
  const out = new Map<number, { id: number; title: string; year: number | null; doi: string | null; arxiv_id: string | null; sources: string[] }>();
  if (ids.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT d.id, d.title, d.year, d.doi, d.arxiv_id,
        (SELECT json_group_array(DISTINCT s.source) FROM document_sources s WHERE s.document_id = d.id) AS sources
       FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value`,
    )
    .all(JSON.stringify(ids)) as { id: number; title: string; year: number | null; doi: string | null; arxiv_id: string | null; sources: string | null }[];
  for (const r of rows) out.set(r.id, { ...r, sources: r.sources ? (JSON.parse(r.sources) as string[]).sort() : [] });
  return out;
}
