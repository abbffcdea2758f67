/**
 * Builds one generation of the HNSW index off the main thread (a million
 * vectors take minutes of CPU), on its own read-only connection. workerData:
 * database, model, out (the temporary file to save to) and base: null for a
 * build from every canonical vector, or the live generation's file and
 * through_seq to fold the changes since into (a compaction). The change seq
 * is read before any vector, so whatever is written meanwhile lies above the
 * new file's through_seq and is read from the canonical table by every query
 * until the next generation. Answers {t: 'done', through_seq, vectors,
 * dimension} or {t: 'error', message}.
 */
import os from 'node:os';
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { changesSince, lastChangeSeq, readVectors, blobToVector } from './repo.js';
import { HNSW, requireUsearch } from './hnsw.js';

interface Job {
  database: string;
  model: string;
  out: string;
  base: { file: string; through_seq: number; dimension: number } | null;
}

const CHUNK = 10_000;

async function build(job: Job): Promise<{ through_seq: number; vectors: number; dimension: number | null }> {
  const usearch = requireUsearch();
  const db = new Database(job.database, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const threads = os.availableParallelism();
  try {
    const through = lastChangeSeq(db);
    let index;
    if (job.base) {
      index = HNSW.open(usearch, job.base.dimension);
      index.load(job.base.file);
      const { documentIds } = changesSince(db, job.model, job.base.through_seq);
      const current = readVectors(db, job.model, documentIds);
      for (const id of documentIds) {
        if (index.contains(BigInt(id))) index.remove(BigInt(id));
        const v = current.get(id);
        if (v && v.length === index.dimensions()) index.add(BigInt(id), v, 1);
      }
    } else {
      const first = db.prepare('SELECT dimension FROM embedding_vectors WHERE model = ? LIMIT 1').get(job.model) as { dimension: number } | undefined;
      if (!first) return { through_seq: through, vectors: 0, dimension: null };
      index = HNSW.open(usearch, first.dimension);
      const page = db.prepare('SELECT document_id, vector FROM embedding_vectors WHERE model = ? AND dimension = ? AND document_id > ? ORDER BY document_id LIMIT ?');
      for (let after = 0; ; ) {
        const rows = page.all(job.model, first.dimension, after, CHUNK) as { document_id: number; vector: Buffer }[];
        if (rows.length === 0) break;
        const keys = new BigUint64Array(rows.length);
        const matrix = new Float32Array(rows.length * first.dimension);
        rows.forEach((r, i) => {
          keys[i] = BigInt(r.document_id);
          matrix.set(blobToVector(r.vector), i * first.dimension);
        });
        index.add(keys, matrix, threads);
        after = rows[rows.length - 1]!.document_id;
      }
    }
    index.save(job.out);
    return { through_seq: through, vectors: index.size(), dimension: index.dimensions() };
  } finally {
    db.close();
  }
}

build(workerData as Job).then(
  (done) => parentPort!.postMessage({ t: 'done', ...done }),
  (err: unknown) => parentPort!.postMessage({ t: 'error', message: err instanceof Error ? err.message : String(err) }),
);
