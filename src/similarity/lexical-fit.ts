/**
 * Counting documents into the lexical lane's statistics: every document after
 * the highest id counted, in id order, once. A backfill does this before it
 * embeds (the after-run one too), so a first backfill weights by the whole
 * corpus, a later one adds only new documents, and one cancelled part-way
 * leaves nothing to count twice. Runs in two processes at once count the same
 * documents, so the last write loses nothing.
 */
import type { Context } from '../context.js';
import type { Lane } from './lanes.js';
import { observe } from './lexical.js';
import { documentTexts } from './repo.js';

const PAGE = 2000;

/** Count the documents the lane's statistics have not counted and keep the counts; answers how many were counted. */
export async function countUncounted(ctx: Context, lane: Lane): Promise<number> {
  const stats = lane.stats;
  if (!stats) return 0;
  let counted = 0;
  for (;;) {
    const page = documentTexts(ctx.db, stats.countedThrough, PAGE);
    if (page.length === 0) break;
    for (const doc of page) observe(stats, doc);
    stats.countedThrough = page[page.length - 1]!.id;
    counted += page.length;
    await new Promise((r) => setImmediate(r));
  }
  lane.persist();
  return counted;
}
