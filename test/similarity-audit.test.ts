/**
 * Conformance audit of near-duplicate links: a collapse preview keeps the
 * journal version over any preprint server's DOI and never calls an id
 * outside the corpus kept; a scan that was stopped resumes where it stopped
 * instead of judging everything again, and still never merges.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { makeRecord, author } from '../src/sources/normalize.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { runLinkScan } from '../src/similarity/link-scan.js';
import { startTestServer, waitFor, type TestServer } from './_setup.js';
import { labelledSet, seedDocuments } from './_similarity.js';

const NOW = '2026-11-20T00:00:00.000Z';
let t: TestServer;
const store = (records: NormalizedRecord[]) => mergeRecords(t.ctx.db, records.map((record, rank) => ({ record, rank })), NOW).map((r) => r.documentId);

test.before.each(async () => {
  t = await startTestServer();
});
test.after.each(async () => t.close());

test('collapse preview keeps the journal version over an SSRN preprint DOI; an unknown id is unknown, not kept', async () => {
  const title = 'Household savings and the monetary transmission channel';
  const authors = [author('Ada Lovelace'), author('Charles Babbage')];
  const [ssrn] = store([makeRecord({ source: 'crossref', nativeId: '10.2139/ssrn.4000001', title, authors, doi: '10.2139/ssrn.4000001', publicationDate: '2022-03-01' })]);
  const [journal] = store([makeRecord({ source: 'crossref', nativeId: '10.1016/j.jme.2023.01.002', title, authors, doi: '10.1016/j.jme.2023.01.002', publicationDate: '2023-01-15' })]);
  assert.ok(ssrn! < journal!);
  const scan = await t.request('POST', '/api/links/scan');
  assert.is(scan.status, 202);
  await waitFor(async () => (await t.request('GET', '/api/links/status')).json().scan?.state === 'completed', 10_000, 'scan completed');
  const links = (await t.request('GET', `/api/documents/${ssrn}/links`)).json();
  assert.is(links.links[0]?.document_id, journal);
  assert.is(links.links[0]?.method, 'preprint_published');
  const preview = (await t.request('POST', '/api/links/collapse-preview', { body: { document_ids: [ssrn, journal, 99999] } })).json();
  assert.is(preview.groups[0].keep, journal, 'the published version is kept, not the SSRN preprint');
  assert.equal(preview.fold_ids, [ssrn]);
  assert.equal(preview.unknown_ids, [99999]);
  assert.equal(preview.kept_ids, [journal], 'an id outside the corpus is not kept');
  assert.is(t.ctx.db.prepare('SELECT COUNT(*) FROM documents').pluck().get(), 2, 'nothing folded');
});

test('a stopped scan resumes where it stopped: pairs judged before are not judged again, pairs with a paper added since are, and the links equal a full scan', async () => {
  const set = labelledSet();
  seedDocuments(t.ctx.db, set.documents);
  const pairsOf = () => (t.ctx.db.prepare('SELECT document_a || \'-\' || document_b FROM document_links ORDER BY 1').pluck().all() as string[]);
  const status = async () => (await t.request('GET', '/api/links/status')).json();
  const full = await runLinkScan(t.ctx);
  assert.is(full.state, 'completed');
  const fullLinks = pairsOf();
  assert.is((await status()).next_scan_resumes_after_document_id, null, 'a completed scan leaves nothing to resume');

  t.ctx.db.prepare('DELETE FROM document_links').run();
  let judged = 0;
  let stop = false;
  const stopped = await runLinkScan(t.ctx, { isCancelled: () => stop, onJudged: () => void (++judged === 60 && (stop = true)) });
  assert.is(stopped.state, 'cancelled');
  const through = (await status()).next_scan_resumes_after_document_id;
  assert.type(through, 'number', 'the stopped scan left a checkpoint');
  // A paper added since, duplicating one the stopped scan had already judged: its pair must still be judged.
  const early = set.documents.find((d: any) => d.id <= through && d.title.length > 30 && (d.authors ?? []).length > 0 && !/^(erratum|correction|comment|reply|retraction)/i.test(d.title) && !d.arxiv_id)!;
  const [added] = seedDocuments(t.ctx.db, [{ title: early.title, authors: early.authors, year: early.year, doi: '10.5555/added-since' }]);

  const resumed = await runLinkScan(t.ctx);
  assert.is(resumed.state, 'completed');
  assert.ok(resumed.candidates < full.candidates, `judged ${resumed.candidates} candidate pairs, fewer than a full scan's ${full.candidates}`);
  const after = pairsOf();
  for (const pair of fullLinks) assert.ok(after.includes(pair), `link ${pair} of the full scan is there after resuming`);
  assert.ok(after.some((p) => p.endsWith(`-${added}`)), 'the paper added since was judged against the early one');
  assert.is((await status()).next_scan_resumes_after_document_id, null);
  assert.is(t.ctx.db.prepare('SELECT COUNT(*) FROM documents').pluck().get(), set.documents.length + 1, 'nothing merged or deleted');
});

test.run();
