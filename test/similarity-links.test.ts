import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { judgePair, linkFeatures } from '../src/similarity/link-rules.js';
import { linkScanSettled, runLinkScan } from '../src/similarity/link-scan.js';
import { startTestServer, type TestServer } from './_setup.js';
import { labelledSet, seedDocuments } from './_similarity.js';

const set = labelledSet();
let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(async () => {
  await t.close();
});

function figures(predicted: (a: number, b: number) => boolean) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of set.pairs) {
    const said = predicted(p.a, p.b);
    if (said && p.label) tp++;
    else if (said) fp++;
    else if (p.label) fn++;
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), tp, fp, fn };
}

test('the labelled set: at least 200 pairs, true duplicates and hard negatives of every kind', () => {
  assert.ok(set.pairs.length >= 200, `${set.pairs.length} pairs`);
  const kinds = new Set(set.pairs.map((p) => `${p.label}:${p.kind}`));
  for (const k of ['true:preprint_published_real_doi', 'true:arxiv_version', 'true:doi_variant', 'true:title_variant', 'false:erratum', 'false:comment', 'false:reply', 'false:same_title_different_work', 'false:part_i_part_ii']) {
    assert.ok(kinds.has(k), k);
  }
});

test('pair rules on the labelled set: precision ≥ 0.98, recall ≥ 0.90', () => {
  const features = new Map(set.documents.map((d) => [d.id, linkFeatures({ ...d, authors: d.authors ?? [], year: d.year ?? null, doi: d.doi ?? null, arxiv_id: d.arxiv_id ?? null, doc_type: d.doc_type ?? null, venue: d.venue ?? null, relations: [] })]));
  const f = figures((a, b) => judgePair(features.get(a)!, features.get(b)!) !== null);
  assert.ok(f.precision >= 0.98, `precision ${f.precision}`);
  assert.ok(f.recall >= 0.9, `recall ${f.recall}`);
});

test('links before any scan: empty with a reason; unknown document 404', async () => {
  seedDocuments(t.ctx.db, set.documents);
  const r = (await t.request('GET', `/api/documents/${set.documents[0]!.id}/links`)).json();
  assert.equal([r.links, r.reason], [[], 'no_scan_yet']);
  assert.is((await t.request('GET', '/api/documents/999999/links')).status, 404);
  const status = (await t.request('GET', '/api/links/status')).json();
  assert.equal([status.total, status.scan], [0, null]);
});

test('the scan (blocking, not all pairs) over the labelled corpus: returns at once; precision ≥ 0.98, recall ≥ 0.90; nothing deleted', async () => {
  const before = (t.ctx.db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
  const r = await t.request('POST', '/api/links/scan');
  assert.is(r.status, 202);
  assert.is(r.json().scan.state, 'running');
  await linkScanSettled(t.ctx);
  const status = (await t.request('GET', '/api/links/status')).json();
  assert.is(status.scan.state, 'completed');
  const n = set.documents.length;
  assert.ok(status.scan.candidates < (n * (n - 1)) / 2 / 20, `candidates ${status.scan.candidates} are far fewer than all pairs`);
  const stored = new Set((t.ctx.db.prepare('SELECT document_a, document_b FROM document_links').all() as { document_a: number; document_b: number }[]).map((l) => `${l.document_a}:${l.document_b}`));
  const f = figures((a, b) => stored.has(`${Math.min(a, b)}:${Math.max(a, b)}`));
  assert.ok(f.precision >= 0.98, `precision ${f.precision}`);
  assert.ok(f.recall >= 0.9, `recall ${f.recall}`);
  assert.is(status.total, stored.size);
  assert.ok(status.by_method.preprint_published > 0 && status.by_method.arxiv_version > 0 && status.by_method.doi_variant > 0);
  assert.is((t.ctx.db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n, before, 'links never delete or merge');
});

test('document links, links for a page, collapse preview (nothing folded); body limits', async () => {
  const truePair = set.pairs.find((p) => p.label && p.kind === 'preprint_published_real_doi')!;
  const one = (await t.request('GET', `/api/documents/${truePair.a}/links`)).json();
  assert.is(one.reason, null);
  const link = one.links.find((l: any) => l.document_id === truePair.b);
  assert.is(link.method, 'preprint_published');
  assert.ok(link.score > 0.8 && link.evidence.title_similarity > 0.8);
  // The evidence also as the sentence `svc links show` and the window say, in the answer itself.
  assert.match(link.evidence_text, /^DOIs \S+ and \S+; .*authors shared; (same year|\d+ years? apart)$/);

  const lonely = set.pairs.find((p) => !p.label && p.kind === 'comment')!;
  const page = (await t.request('POST', '/api/links/for-documents', { body: { document_ids: [truePair.a, truePair.b, lonely.b, 987654] } })).json();
  assert.equal(Object.keys(page.links).sort(), [truePair.a, truePair.b, lonely.b, 987654].map(String).sort());
  assert.equal(page.unknown_ids, [987654], 'an id not in the corpus is named, not passed off as a paper with no links');
  assert.equal(page.links['987654'], []);
  assert.is(page.links[String(truePair.b)].find((l: any) => l.document_id === truePair.a).evidence_text, link.evidence_text, 'a page of results says the same sentence');
  assert.equal(page.links[String(lonely.b)], []);

  const preview = (await t.request('POST', '/api/links/collapse-preview', { body: { document_ids: [truePair.a, truePair.b, lonely.b] } })).json();
  assert.is(preview.folded_nothing, true);
  assert.equal(preview.groups.length, 1);
  assert.is(preview.groups[0].keep, truePair.b, 'the published version is kept');
  assert.equal(preview.fold_ids, [truePair.a]);
  assert.ok(t.ctx.db.prepare('SELECT 1 FROM documents WHERE id = ?').get(truePair.a), 'still there');

  const tooMany = await t.request('POST', '/api/links/for-documents', { body: { document_ids: Array.from({ length: 501 }, (_, i) => i + 1) } });
  assert.is(tooMany.status, 422);
  assert.is((await t.request('POST', '/api/links/collapse-preview', { body: { document_ids: [0] } })).status, 422);
  assert.is((await t.request('POST', '/api/links/collapse-preview', { body: { document_ids: 'x' } })).status, 422);
});

test('links for 500 ids: every id a key, the unknown ones named in the order asked, in a few queries rather than one per id', async () => {
  const known = t.ctx.db.prepare('SELECT id FROM documents ORDER BY id LIMIT 250').pluck().all() as number[];
  assert.is(known.length, 250);
  const ids = known.flatMap((id, i) => [id, 9_000_000 - i]); // 250 papers, 250 ids not in the corpus, interleaved
  const db = t.ctx.db;
  const prepare = db.prepare;
  let statements = 0;
  db.prepare = ((sql: string) => (statements++, prepare.call(db, sql))) as typeof db.prepare;
  let page: any;
  try {
    const r = await t.request('POST', '/api/links/for-documents', { body: { document_ids: ids } });
    assert.is(r.status, 200, r.text);
    page = r.json();
  } finally {
    db.prepare = prepare;
  }
  assert.ok(statements < 20, `${statements} statements for 500 ids`);
  assert.equal(Object.keys(page).sort(), ['linked_count', 'links', 'unknown_ids']);
  assert.equal(Object.keys(page.links).sort(), ids.map(String).sort());
  assert.equal(page.unknown_ids, ids.filter((id) => !known.includes(id)));
  for (const id of page.unknown_ids) assert.equal(page.links[String(id)], []);
  assert.is(page.linked_count, Object.values(page.links).filter((l: any) => l.length > 0).length);
  assert.ok(page.linked_count > 0, 'some of the papers have links');
});

test('scan cancel through the API: answers at once, the scan ends cancelled; cancel with nothing running says so', async () => {
  const idle = (await t.request('POST', '/api/links/scan/cancel')).json();
  assert.equal([idle.cancel_requested, idle.scan_id], [false, null]);
  const linksBefore = (t.ctx.db.prepare('SELECT COUNT(*) AS n FROM document_links').get() as { n: number }).n;
  // Enough unrelated documents that the scan is still going when the cancel arrives.
  seedDocuments(t.ctx.db, Array.from({ length: 30000 }, (_, i) => ({ title: `Filler study number ${i} of topic ${i % 97} in field ${i % 13}`, authors: [{ name: `Author ${i}` }], year: 2000 + (i % 20) })));
  const started = (await t.request('POST', '/api/links/scan')).json();
  const cancel = (await t.request('POST', '/api/links/scan/cancel')).json();
  assert.equal([cancel.cancel_requested, cancel.scan_id], [true, started.scan.id]);
  await linkScanSettled(t.ctx);
  const status = (await t.request('GET', '/api/links/status')).json();
  assert.is(status.scan.state, 'cancelled');
  assert.ok(status.scan.scanned < status.scan.total);
  assert.is(status.total, linksBefore, 'earlier links kept');
});

test('scan cancel mid-judging: stops after the document in flight; the links found before are written and kept', async () => {
  t.ctx.db.prepare('DELETE FROM document_links').run();
  let judged = 0;
  let foundAtCancel = -1;
  const scan = await runLinkScan(t.ctx, {
    isCancelled: () => foundAtCancel >= 0,
    onJudged: (_id, found) => {
      if (++judged === 40) foundAtCancel = found;
    },
  });
  assert.is(scan.state, 'cancelled');
  assert.ok(foundAtCancel > 0, 'some links were found before the cancel');
  assert.is(scan.links_written, foundAtCancel, 'exactly the links of the judged documents, none after');
  assert.is((t.ctx.db.prepare('SELECT COUNT(*) AS n FROM document_links').get() as { n: number }).n, foundAtCancel);
});

test("the links and the scan's count of them are stored together: a refused count leaves no links the scan does not count", async () => {
  t.ctx.db.prepare('DELETE FROM document_links').run();
  t.ctx.db.exec("CREATE TEMP TRIGGER refuse_link_count BEFORE UPDATE OF links_written ON link_scans WHEN NEW.links_written > 0 BEGIN SELECT RAISE(ABORT, 'count refused'); END");
  try {
    await runLinkScan(t.ctx).then(
      () => assert.unreachable('the refused count should fail the scan'),
      (err: Error) => assert.match(err.message, /count refused/),
    );
  } finally {
    t.ctx.db.exec('DROP TRIGGER temp.refuse_link_count');
  }
  const scan = t.ctx.db.prepare('SELECT state, links_written FROM link_scans ORDER BY id DESC LIMIT 1').get() as { state: string; links_written: number };
  assert.is(scan.state, 'failed');
  assert.is((t.ctx.db.prepare('SELECT COUNT(*) AS n FROM document_links').get() as { n: number }).n, scan.links_written);
});

test.run();
