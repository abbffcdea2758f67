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

test.run();
