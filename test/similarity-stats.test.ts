/**
 * The local lexical lane's document frequencies (embedding_stats): kept by
 * every backfill, read by the next lane in any process, so vectors of
 * different runs and the query are weighted by the same corpus statistics.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext, type Context } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { runBackfill } from '../src/similarity/backfill.js';
import { isLane, resolveLane, type Lane } from '../src/similarity/lanes.js';
import { embedLexical, emptyStats, observe, type LexicalInput } from '../src/similarity/lexical.js';
import { readStats, readVector } from '../src/similarity/repo.js';
import { foldDocument } from '../src/corpus/fold.js';
import { tempDirs, type TempDirs } from './_setup.js';
import { seedDocuments, TOPICS, type SeedDoc } from './_similarity.js';

const KEY = 'local/lexical-hash-v1';
const LATER: SeedDoc[] = [
  { title: 'Seagrass meadows store blue carbon', abstract: 'Coastal sediments under seagrass bury carbon for centuries.' },
  { title: 'Coral reef fish acoustics', abstract: 'Snapping shrimp dominate reef soundscapes.' },
];

const open = (dirs: TempDirs) => createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }) });
const laneOf = (ctx: Context): Lane => {
  const lane = resolveLane(ctx);
  assert.ok(isLane(lane));
  return lane;
};
/** The statistics of exactly these documents, counted once each. */
function statsOf(docs: LexicalInput[]) {
  const stats = emptyStats();
  for (const d of docs) observe(stats, { ...d });
  return stats;
}

test('a backfill keeps the document frequencies; a new process reads them; an after-run embedding adds its documents; queries use them', async () => {
  const dirs = tempDirs();
  try {
    let ctx = open(dirs);
    seedDocuments(ctx.db, TOPICS);
    await runBackfill(ctx, { trigger: 'test' });
    assert.is(readStats(ctx.db, KEY)?.documents, TOPICS.length, 'the backfill stored the statistics of the corpus');
    await ctx.close();

    ctx = open(dirs);
    try {
      assert.is(laneOf(ctx).stats!.documents, TOPICS.length, 'a new process starts from the stored statistics');
      // A query is weighted by the corpus, not by empty statistics (every weight 1).
      const query = await laneOf(ctx).embedQuery('coral reef bleaching');
      assert.equal(Array.from(query), Array.from(embedLexical(statsOf(TOPICS), { title: 'coral reef bleaching' })));
      assert.not.equal(Array.from(query), Array.from(embedLexical(emptyStats(), { title: 'coral reef bleaching' })));

      // The after-run step (ids given) weights its documents by the whole corpus and adds them.
      const later = seedDocuments(ctx.db, LATER);
      await runBackfill(ctx, { trigger: 'after_run:1', ids: later });
      assert.is(readStats(ctx.db, KEY)?.documents, TOPICS.length + LATER.length, 'the run’s documents are added to the stored counts');
      const all = statsOf([...TOPICS, ...LATER]);
      assert.equal(Array.from(readVector(ctx.db, KEY, later[0]!)!), Array.from(embedLexical(all, { ...LATER[0]! })), 'weighted by the corpus, not by the run alone');
      assert.is(laneOf(ctx).stats!.documents, TOPICS.length + LATER.length);
    } finally {
      await ctx.close();
    }
  } finally {
    dirs.cleanup();
  }
});

test('a backfill cancelled part-way counts nothing twice when the next one finishes; an after-run embedding before any backfill weights by the whole corpus', async () => {
  const dirs = tempDirs();
  const ctx = open(dirs);
  try {
    // More documents than one batch (256), so a cancel leaves some without a vector.
    const corpus: SeedDoc[] = Array.from({ length: 600 }, (_, i) => ({ ...TOPICS[i % TOPICS.length]!, title: `${TOPICS[i % TOPICS.length]!.title} ${i % 50}` }));
    const ids = seedDocuments(ctx.db, corpus);
    // A run found the last two papers: embedded before any backfill.
    await runBackfill(ctx, { trigger: 'after_run:1', ids: ids.slice(-2) });
    const whole = statsOf(corpus);
    assert.equal(Array.from(readVector(ctx.db, KEY, ids.at(-1)!)!), Array.from(embedLexical(whole, { ...corpus.at(-1)! })), 'the run’s papers are weighted by the whole corpus');
    assert.is(readStats(ctx.db, KEY)?.documents, corpus.length);

    let batches = 0;
    const cancelled = await runBackfill(ctx, { trigger: 'test', isCancelled: () => batches > 0, onProgress: () => batches++ });
    assert.is(cancelled.state, 'cancelled');
    assert.ok(cancelled.embedded < cancelled.total, 'some papers are left without a vector');
    await runBackfill(ctx, { trigger: 'test' });
    const stored = readStats(ctx.db, KEY)!;
    assert.is(stored.documents, corpus.length, 'each paper counted once');
    assert.equal(Array.from(laneOf(ctx).stats!.df), Array.from(whole.df));
    assert.equal(Array.from(readVector(ctx.db, KEY, ids[400]!)!), Array.from(embedLexical(whole, { ...corpus[400]! })), 'a paper of the second backfill has the same weights');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('a backfill with nothing new to count writes no statistics', async () => {
  const dirs = tempDirs();
  const ctx = open(dirs);
  try {
    seedDocuments(ctx.db, TOPICS);
    await runBackfill(ctx, { trigger: 'test' });
    ctx.db.prepare("UPDATE embedding_stats SET updated_at_utc = 'untouched'").run();
    ctx.db.prepare('DELETE FROM embedding_vectors WHERE document_id IN (SELECT id FROM documents ORDER BY id LIMIT 3)').run();
    const run = await runBackfill(ctx, { trigger: 'test' });
    assert.is(run.embedded, 3);
    assert.is(ctx.db.prepare('SELECT updated_at_utc FROM embedding_stats').pluck().get(), 'untouched', 'the 1 MiB of counts is written only when they change');
    assert.is(readStats(ctx.db, KEY)?.documents, TOPICS.length, 'papers re-embedded are not counted again');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('a paper stored under the id of the newest paper, folded away after it was counted, is counted too', async () => {
  const dirs = tempDirs();
  const ctx = open(dirs);
  try {
    const ids = seedDocuments(ctx.db, TOPICS);
    await runBackfill(ctx, { trigger: 'test' });
    assert.is(readStats(ctx.db, KEY)?.counted_through, ids.at(-1));
    // A record proves the newest paper and the first are one work: the newest is folded away.
    ctx.db.transaction(() => foldDocument(ctx.db, ids[0]!, ids.at(-1)!))();
    // SQLite gives the next paper the largest id again (no AUTOINCREMENT): the one just counted.
    const [next] = seedDocuments(ctx.db, [LATER[0]!]);
    assert.is(next, ids.at(-1), 'the id is given again');
    await runBackfill(ctx, { trigger: 'after_run:1', ids: [next!] });
    assert.is(readStats(ctx.db, KEY)?.documents, TOPICS.length + 1, 'the new paper is counted');
    assert.equal(Array.from(readVector(ctx.db, KEY, next!)!), Array.from(embedLexical(statsOf([...TOPICS, LATER[0]!]), { ...LATER[0]! })), 'and weighted with itself counted');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test.run();
