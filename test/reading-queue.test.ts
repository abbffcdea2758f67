import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';

let t: TestServer;
let ids: number[];

test.before(async () => {
  t = await startTestServer();
  ids = seed(t.ctx, [1, 2, 3, 4].map((n) => makeRecord(n)));
});
test.after(async () => t.close());

test('save: 201 once, then the same row unchanged with 200; unknown paper 404; bad body 422', async () => {
  const first = await t.request('POST', '/api/reading-queue', { body: { document_id: ids[0] } });
  assert.is(first.status, 201);
  assert.is(first.json().status, 'unread');
  assert.is(first.json().created, true);
  assert.is(first.json().paper.id, ids[0]);
  const again = await t.request('POST', '/api/reading-queue', { body: { document_id: ids[0] } });
  assert.is(again.status, 200);
  assert.is(again.json().created, false);
  assert.is(again.json().saved_at_utc, first.json().saved_at_utc);
  assert.is((await t.request('POST', '/api/reading-queue', { body: { document_id: 999999 } })).status, 404);
  for (const body of [{}, { document_id: 0 }, { document_id: 'x' }, { document_id: 1.5 }]) assert.is((await t.request('POST', '/api/reading-queue', { body })).status, 422, JSON.stringify(body));
});

test('read and unread; listing filters by status (omitted or all means both); paging', async () => {
  await t.request('POST', '/api/reading-queue', { body: { document_id: ids[1] } });
  await t.request('POST', '/api/reading-queue', { body: { document_id: ids[2] } });
  const read = await t.request('PUT', `/api/reading-queue/${ids[1]}`, { body: { status: 'read' } });
  assert.is(read.status, 200);
  assert.is(read.json().status, 'read');
  assert.ok(read.json().read_at_utc);
  assert.is(read.json().changed, true);
  assert.is((await t.request('PUT', `/api/reading-queue/${ids[1]}`, { body: { status: 'read' } })).json().changed, false);
  assert.is((await t.request('PUT', `/api/reading-queue/${ids[1]}`, { body: { status: 'done' } })).status, 422);
  assert.is((await t.request('PUT', `/api/reading-queue/${ids[3]}`, { body: { status: 'read' } })).json().detail.reason, 'not_in_queue');
  assert.is((await t.request('PUT', `/api/reading-queue/999999`, { body: { status: 'read' } })).status, 404);

  const all = (await t.request('GET', '/api/reading-queue')).json();
  assert.is(all.total, 3);
  assert.equal(all.counts, { unread: 2, read: 1 });
  assert.equal((await t.request('GET', '/api/reading-queue?status=all')).json().total, 3);
  const unread = (await t.request('GET', '/api/reading-queue?status=unread')).json();
  assert.equal(unread.entries.map((e: any) => e.document_id).sort(), [ids[0], ids[2]].sort());
  assert.is((await t.request('GET', '/api/reading-queue?status=read')).json().entries[0].document_id, ids[1]);
  const page = (await t.request('GET', '/api/reading-queue?limit=2')).json();
  assert.is(page.entries.length, 2);
  assert.is(page.next_offset, 2);
  assert.is((await t.request('GET', '/api/reading-queue?status=bogus')).status, 422);
  assert.is((await t.request('GET', '/api/reading-queue?limit=0')).status, 422);
  assert.is((await t.request('PUT', `/api/reading-queue/${ids[1]}`, { body: { status: 'unread' } })).json().read_at_utc, null);
});

test('listing with document_id answers only that paper\'s entry, or none: how a paper page learns its queue status', async () => {
  // State left by the tests above: ids[0] and ids[2] unread, ids[1] unread again, ids[3] never saved.
  await t.request('PUT', `/api/reading-queue/${ids[2]}`, { body: { status: 'read' } });
  const saved = (await t.request('GET', `/api/reading-queue?document_id=${ids[2]}`)).json();
  assert.equal(saved.entries.map((e: any) => [e.document_id, e.status, e.paper.id]), [[ids[2], 'read', ids[2]]]);
  assert.is(saved.total, 1);
  assert.is(saved.next_offset, null);
  assert.equal(saved.counts, { unread: 2, read: 1 }, 'the counts stay those of the whole queue');
  const notSaved = (await t.request('GET', `/api/reading-queue?document_id=${ids[3]}`)).json();
  assert.equal([notSaved.total, notSaved.entries], [0, []]);
  assert.is((await t.request('GET', `/api/reading-queue?document_id=${ids[2]}&status=unread`)).json().total, 0);
  assert.is((await t.request('GET', `/api/reading-queue?document_id=${ids[2]}&status=read`)).json().total, 1);
  assert.is((await t.request('GET', `/api/reading-queue?document_id=${ids[0]}&offset=1`)).json().entries.length, 0);
  for (const bad of ['0', 'x', '-3']) assert.is((await t.request('GET', `/api/reading-queue?document_id=${bad}`)).status, 422, bad);
  await t.request('PUT', `/api/reading-queue/${ids[2]}`, { body: { status: 'unread' } });
});

test('remove: the paper stays in the corpus; removing again is 404', async () => {
  const r = await t.request('DELETE', `/api/reading-queue/${ids[2]}`);
  assert.is(r.status, 200);
  assert.equal(r.json(), { document_id: ids[2], removed: true });
  assert.ok(t.ctx.db.prepare('SELECT 1 FROM documents WHERE id = ?').get(ids[2]));
  assert.is((await t.request('DELETE', `/api/reading-queue/${ids[2]}`)).status, 404);
  assert.is((await t.request('DELETE', `/api/reading-queue/abc`)).status, 422);
});

test('a paper deleted from the corpus leaves the queue; folding two papers keeps one queue row', async () => {
  t.ctx.db.prepare('DELETE FROM documents WHERE id = ?').run(ids[1]);
  assert.is((await t.request('GET', '/api/reading-queue')).json().total, 1);
  const [a] = seed(t.ctx, [makeRecord(50, { doi: '10.5555/fold-a', ids: {} })]);
  const [b] = seed(t.ctx, [makeRecord(51, { doi: undefined, ids: { arxiv: '2101.00001' } })]);
  await t.request('POST', '/api/reading-queue', { body: { document_id: a } });
  await t.request('POST', '/api/reading-queue', { body: { document_id: b } });
  // One record names both identifiers: the two documents are one work.
  seed(t.ctx, [makeRecord(52, { doi: '10.5555/fold-a', ids: { arxiv: '2101.00001' } })]);
  const list = (await t.request('GET', '/api/reading-queue')).json();
  assert.is(list.total, 2);
  assert.ok(list.entries.some((e: any) => e.document_id === Math.min(a!, b!)));
});

test('q keeps the saved papers whose title or authors hold every word (any case); matching counts them per status, counts the whole queue', async () => {
  const [soil, wheat, other] = seed(t.ctx, [
    makeRecord(60, { title: 'Soil microbes under drought', authors: [{ name: 'Ana Souza' }] }),
    makeRecord(61, { title: 'Drought and wheat yields', authors: [{ name: 'Bo Li' }] }),
    makeRecord(62, { title: 'Coral reefs', authors: [{ name: 'Cy Drought' }] }),
  ]);
  for (const id of [soil, wheat]) await t.request('POST', '/api/reading-queue', { body: { document_id: id } });
  await t.request('PUT', `/api/reading-queue/${wheat}`, { body: { status: 'read' } });
  const list = async (query: string) => (await t.request('GET', `/api/reading-queue?${query}`)).json();
  const drought = await list('q=DROUGHT');
  assert.equal(drought.entries.map((e: any) => e.document_id), [wheat, soil], 'newest saved first; an unsaved paper that matches is not listed');
  assert.equal([drought.total, drought.matching, drought.query], [2, { unread: 1, read: 1 }, 'drought']);
  const whole = await list('');
  assert.equal(drought.counts, whole.counts, 'counts stay the whole queue');
  assert.equal(whole.matching, whole.counts);
  assert.is(whole.query, null);
  assert.equal((await list('q=drought%20soil')).entries.map((e: any) => e.document_id), [soil], 'every word');
  assert.equal((await list('q=souza')).entries.map((e: any) => e.document_id), [soil], 'an author');
  const read = await list('q=drought&status=read');
  assert.equal([read.entries.map((e: any) => e.document_id), read.total], [[wheat], 1]);
  assert.equal((await list('q=nothing%20like%20this')).total, 0);
  assert.equal((await list('q=%20%20')).total, whole.total, 'blank words filter nothing');
  assert.ok(other);
  const long = await t.request('GET', `/api/reading-queue?q=${'x'.repeat(201)}`);
  assert.equal([long.status, long.json().detail[0].loc], [422, ['query', 'q']]);
});

test.run();
