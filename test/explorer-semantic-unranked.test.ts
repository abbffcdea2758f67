/**
 * Explorer semantic mode when only part of the corpus has a vector for the
 * active model (papers stored since the last backfill, or a model just
 * changed): the ranking can hold only the embedded papers, and the answer
 * must count the ones it left out instead of answering unranked_count 0.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, waitFor, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { makeRecord, seed } from './_corpus.js';

let t: TestServer;

test.before(async () => {
  t = await startTestServer();
});
test.after(async () => t.close());

const search = async (body: unknown) => {
  const r = await t.request('POST', '/api/explorer/search', { body });
  assert.is(r.status, 200, r.text);
  return r.json();
};

test('semantic search: papers with no vector yet are counted in unranked_count (they are left out of the ranking), filters applied', async () => {
  seed(t.ctx, [1, 2, 3].map((n) => makeRecord(n, { source: 'dblp', title: `Coral reef bleaching survey ${n}`, ids: { dblp: `x/${n}` }, doi: undefined, nativeId: `x/${n}` })));
  const started = await t.request('POST', '/api/embeddings/backfill');
  assert.is(started.status, 202, started.text);
  await waitFor(async () => ((await t.request('GET', '/api/embeddings/status')).json().missing === 0 ? true : undefined), 10_000, 'the backfill');
  // Stored after the backfill: no vector for the active model yet.
  seed(t.ctx, [
    makeRecord(4, { source: 'dblp', title: 'Coral reef bleaching in 2024', ids: { dblp: 'x/4' }, doi: undefined, nativeId: 'x/4' }),
    makeRecord(5, { source: 'crossref', title: 'Coral reef recovery' }),
  ]);

  const all = await search({ mode: 'semantic', query: 'coral reef bleaching' });
  assert.is(all.mode, 'semantic', JSON.stringify(all.mode_unavailable));
  assert.equal([all.ranked_count, all.unranked_count], [3, 2], 'three ranked, the two new papers counted as left out');
  assert.ok(all.papers.every((p: any) => typeof p.distance === 'number'));

  const cli = await runCliInProcess(['explore', 'coral reef bleaching', '--mode', 'semantic'], { env: t.dirs.env });
  assert.is(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /2 matching papers have no vector for \S+ yet and are not ranked; `svc embed backfill` embeds them/);

  const filtered = await search({ mode: 'semantic', query: 'coral reef bleaching', sources: ['dblp'] });
  assert.equal([filtered.ranked_count, filtered.unranked_count], [3, 1], 'only the unembedded paper the filters admit');

  await t.request('POST', '/api/embeddings/backfill');
  await waitFor(async () => ((await t.request('GET', '/api/embeddings/status')).json().missing === 0 ? true : undefined), 10_000, 'the second backfill');
  const after = await search({ mode: 'semantic', query: 'coral reef bleaching' });
  assert.equal([after.ranked_count, after.unranked_count], [5, 0]);
});

test.run();
