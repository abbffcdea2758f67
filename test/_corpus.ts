/** Helpers for corpus tests: records built to order, merged straight into a Context's database. */
import path from 'node:path';
import type { Context } from '../src/context.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { openDatabase, type Database } from '../src/db/open.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { tempDirs } from './_setup.js';

export function makeRecord(n: number, fields: Partial<NormalizedRecord> = {}): NormalizedRecord {
  return {
    source: 'crossref',
    nativeId: `native-${n}`,
    title: `Paper number ${n} about things`,
    authors: [{ name: `Author ${n % 5}` }],
    abstract: `Abstract of paper ${n}.`,
    publicationDate: `2020-01-${String(1 + (n % 28)).padStart(2, '0')}`,
    datePrecision: 'day',
    doi: `10.5555/test.${n}`,
    ids: {},
    categories: [],
    relations: [],
    ...fields,
  };
}

/** A record with only the fields given (and empty lists): for tests that spell every field they care about. */
export function bareRecord(fields: Partial<NormalizedRecord> & Pick<NormalizedRecord, 'source' | 'nativeId' | 'title'>): NormalizedRecord {
  return { authors: [], ids: {}, categories: [], relations: [], ...fields };
}

/** Merge records one batch; answers their document ids in order. */
export function seed(ctx: Context, records: NormalizedRecord[]): number[] {
  return mergeRecords(ctx.db, records.map((record, rank) => ({ record, rank })), ctx.nowIso()).map((r) => r.documentId);
}

/** A fresh database on a temp file, its clock at `now`; `run` gets it and everything is removed afterwards. */
export function withDatabase(now: string, run: (db: Database) => void): void {
  const dirs = tempDirs();
  const { db } = openDatabase(path.join(dirs.dataDir, 'svc.db'), () => now);
  try {
    run(db);
  } finally {
    db.close();
    dirs.cleanup();
  }
}
