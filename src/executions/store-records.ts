/**
 * A run's store step: a source's records merged into the corpus, linked to the
 * run that found them, then indexed, without holding the event loop for long.
 *
 * Records go in several transactions of whole records, at most STORE_BATCH
 * records or STORE_AUTHORS names each, with a turn of the event loop between
 * two. Why not prepare the records first and write a page in one short
 * transaction: profiled with a page of 100 collaboration papers of 2,000
 * authors, the cost is the writing itself (rows of ~200 kB of authors each, then
 * 200,000 facet rows, index entries and counts), so one transaction of the page
 * held the thread 1.5 s and its index flush 1.5 to 4 s more. Transactions at
 * record boundaries keep what a page's merge guarantees: each carries its
 * records' links to the run, so a record is merged whole or not at all and is
 * never in the corpus without the run that found it. A crash between two leaves
 * the first records merged and linked and the run interrupted (recovery.ts); a
 * run again merges the rest and finds the first as sightings seen before
 * (merge is idempotent by source and native id). The documents, provenance and
 * facet counts come out the same as from one transaction: each record is merged
 * against the corpus as the ones before it left it, and counts are sums.
 */
import type { Context } from '../context.js';
import { mergeRecords, type MergeResult } from '../corpus/merge.js';
import { flushSearchIndexInTurns } from '../corpus/search-index.js';
import type { NormalizedRecord } from '../sources/types.js';
import { ioTurn } from '../util/io-turn.js';
import { linkDocuments } from './repo.js';

/** Most records in one transaction: small transactions cost more than they save. */
export const STORE_BATCH = 250;
/**
 * …or fewer, so that one transaction merges at most about this many author names: merging is work
 * per author (40 to 60 ms of CPU for 10,000 names here), and 100 collaboration papers of 2,000
 * authors in one transaction held the event loop for 1.5 s. A record with more is one transaction.
 */
export const STORE_AUTHORS = 10_000;

/** The records cut, in order, into transactions of at most STORE_BATCH records and STORE_AUTHORS names (one record at least). */
export function storeSlices(records: NormalizedRecord[]): NormalizedRecord[][] {
  const slices: NormalizedRecord[][] = [];
  let slice: NormalizedRecord[] = [];
  let authors = 0;
  for (const record of records) {
    if (slice.length > 0 && (slice.length >= STORE_BATCH || authors + record.authors.length > STORE_AUTHORS)) {
      slices.push(slice);
      slice = [];
      authors = 0;
    }
    slice.push(record);
    authors += record.authors.length;
  }
  if (slice.length > 0) slices.push(slice);
  return slices;
}

/**
 * Merge records found by one source of a run, ranked from `firstRank` on, link them to the run and
 * index them; answers, per record, the document it became or joined and whether that is new.
 *
 * @example const merged = await storeRecords(ctx, executionId, 'arxiv', page.records, stored)
 */
export async function storeRecords(ctx: Context, executionId: number, sourceId: string, records: NormalizedRecord[], firstRank: number, turn = ioTurn): Promise<MergeResult[]> {
  const merged: MergeResult[] = [];
  for (const slice of storeSlices(records)) {
    if (merged.length > 0) await turn();
    const rank = firstRank + merged.length;
    const answers = ctx.db.transaction(() => {
      const answers = mergeRecords(ctx.db, slice.map((record, i) => ({ record, rank: rank + i })), ctx.nowIso());
      linkDocuments(ctx.db, executionId, sourceId, answers.map((m, i) => ({ ...m, rank: rank + i })));
      return answers;
    })();
    merged.push(...answers);
  }
  // Indexed batch by batch, while the source is asked for the next page, rather than all at the
  // end where the run waits for it: a few flushes cost about what one large flush does.
  await turn();
  await flushSearchIndexInTurns(ctx.db, turn);
  return merged;
}
