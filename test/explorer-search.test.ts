import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { backfillSettled } from '../src/similarity/backfill.js';
import { useSemanticSearch, type SemanticSearch } from '../src/explorer/semantic.js';

let t: TestServer;
const search = (body: unknown) => t.request('POST', '/api/explorer/search', { body });

test.before(async () => {
  t = await startTestServer();
  const records = [];
  for (let n = 1; n <= 30; n++) {
    records.push(
      makeRecord(n, {
        source: n % 3 === 0 ? 'arxiv' : 'crossref',
        title: n % 2 ? `Soil carbon dynamics in grassland ${n}` : `Ocean warming and coral reefs ${n}`,
        abstract: n % 2 ? 'We measure soil organic carbon.' : 'Coral bleaching under heat stress.',
        authors: [{ name: n % 4 === 0 ? 'Ada Lovelace' : 'Grace Hopper' }, { name: `Coauthor ${n}` }],
        categories: n % 2 ? ['Ecology', 'Soil science'] : ['Marine biology'],
        // Several papers share a date so the id tie-break is exercised.
        publicationDate: n <= 10 ? '2021-06-01' : n <= 20 ? `2019-0${1 + (n % 9)}` : `${2000 + n}`,
        datePrecision: n <= 10 ? 'day' : n <= 20 ? 'month' : 'year',
      }),
    );
  }
  seed(t.ctx, records);
});
test.after(async () => t.close());

test('newest first: publication date descending then id descending, cursor pages cover everything once', async () => {
  const all = t.ctx.db.prepare('SELECT id FROM documents ORDER BY sort_date DESC, id DESC').pluck().all() as number[];
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await search({ limit: 7, cursor });
    assert.is(r.status, 200, r.text);
    const body = r.json();
    assert.is(body.mode, 'keyword');
    assert.is(body.mode_unavailable, null);
    assert.not.ok('ranked_count' in body, 'semantic fields only when semantic was asked');
    seen.push(...body.papers.map((p: any) => p.id));
    cursor = body.next_cursor;
    pages++;
  } while (cursor);
  assert.equal(seen, all);
  assert.is(pages, 5);
  const first = (await search({})).json();
  assert.is(first.limit, 50);
  assert.is(first.papers.length, 30);
  for (const key of ['id', 'title', 'authors', 'publication_date', 'source', 'doi', 'url']) assert.ok(key in first.papers[0], key);
});

test('cursor stays stable while papers are added between pages', async () => {
  const before = new Set(t.ctx.db.prepare('SELECT id FROM documents').pluck().all() as number[]);
  const p1 = (await search({ limit: 10 })).json();
  // New papers: one newer than everything, one older, one dated like the cursor position.
  const added = seed(t.ctx, [
    makeRecord(1001, { publicationDate: '2030-01-01' }),
    makeRecord(1002, { publicationDate: '1990-01-01' }),
    makeRecord(1003, { publicationDate: '2021-06-01' }),
  ]);
  const rest: number[] = [];
  let cursor = p1.next_cursor;
  while (cursor) {
    const body = (await search({ limit: 10, cursor })).json();
    rest.push(...body.papers.map((p: any) => p.id));
    cursor = body.next_cursor;
  }
  const all = [...p1.papers.map((p: any) => p.id), ...rest];
  assert.is(new Set(all).size, all.length, 'no paper twice');
  for (const id of before) assert.ok(all.includes(id), `pre-existing ${id} not skipped`);
  assert.not.ok(all.includes(added[0]), 'a paper newer than the cursor does not appear later');
  assert.ok(all.includes(added[1]), 'an older paper appears on a later page');
  t.ctx.db.prepare(`DELETE FROM documents WHERE id IN (${added.join(',')})`).run();
});

test('filters: query, authors, categories, sources, date window (overlap, undated excluded)', async () => {
  const ids = async (body: object) => (await search({ limit: 500, ...body })).json().papers.map((p: any) => p.id).sort((a: number, b: number) => a - b);
  const sql = (where: string, ...args: unknown[]) => (t.ctx.db.prepare(`SELECT id FROM documents d WHERE ${where} ORDER BY id`).pluck().all(...args) as number[]);
  assert.equal(await ids({ query: 'soil' }), sql(`title LIKE '%soil%'`));
  assert.equal(await ids({ query: 'coral -bleaching' }), []);
  assert.equal(await ids({ query: '"soil carbon"' }), sql(`title LIKE '%soil carbon%'`));
  assert.equal(await ids({ query: 'grass*' }), sql(`title LIKE '%grassland%'`));
  assert.equal(await ids({ authors: ['ada lovelace'] }), sql(`authors_json LIKE '%Ada Lovelace%'`));
  assert.equal(await ids({ categories: ['Marine biology'] }), sql(`categories_json LIKE '%Marine biology%'`));
  assert.equal(await ids({ sources: ['arxiv'] }), sql(`id IN (SELECT document_id FROM document_sources WHERE source = 'arxiv')`));
  assert.equal(await ids({ sources: ['arxiv'], categories: ['Ecology'] }), sql(`id IN (SELECT document_id FROM document_sources WHERE source = 'arxiv') AND categories_json LIKE '%Ecology%'`));
  // 2021-06-01 day papers, plus year-only 2021 (n = 21): a year overlaps a window inside it.
  assert.equal(await ids({ date_from: '2021-05-01', date_to: '2021-12-31' }), sql(`publication_date = '2021-06-01' OR publication_date = '2021'`));
  assert.equal(await ids({ date_from: '2019-03-15', date_to: '2019-03-15' }), sql(`publication_date = '2019-03'`), 'a month overlaps a day inside it');
});

test('relevance sort ranks by bm25 and pages by cursor', async () => {
  const body = (await search({ query: 'soil carbon', sort: 'relevance', limit: 4 })).json();
  assert.is(body.sort, 'relevance');
  assert.is(body.papers.length, 4);
  const seen = body.papers.map((p: any) => p.id);
  let cursor = body.next_cursor;
  while (cursor) {
    const next = (await search({ query: 'soil carbon', sort: 'relevance', limit: 4, cursor })).json();
    seen.push(...next.papers.map((p: any) => p.id));
    cursor = next.next_cursor;
  }
  assert.is(new Set(seen).size, 15);
  assert.is((await search({ sort: 'relevance' })).status, 422, 'relevance needs a query');
});

test('refusals: limit bounds, bad sort, bad dates, offset, foreign cursor, empty query words', async () => {
  for (const body of [{ limit: 0 }, { limit: 501 }, { limit: 1.5 }, { sort: 'oldest-ish' }, { date_from: '2020-02-30' }, { date_from: '2021-01-02', date_to: '2021-01-01' }, { offset: 10 }, { cursor: 'garbage' }, { query: '!!!' }, { mode: 'vector' }, { authors: 'x' }]) {
    const r = await search(body);
    assert.is(r.status, 422, JSON.stringify(body));
    assert.ok(Array.isArray(r.json().detail), 'validation shape');
  }
  const cursor = (await search({ limit: 1 })).json().next_cursor;
  const r = await search({ limit: 1, cursor, query: 'soil' });
  assert.is(r.status, 422, 'a cursor with other filters is refused');
  assert.is(r.json().detail[0].type, 'cursor_invalid');
  assert.is((await t.request('POST', '/api/explorer/search', { body: '{}', token: null })).status, 401);
});

test('an empty cursor is refused at body.cursor (422 cursor_invalid), not read as the first page; every cursor refusal says to leave cursor out', async () => {
  const empty = await search({ limit: 1, cursor: '' });
  assert.is(empty.status, 422);
  const [issue] = empty.json().detail;
  assert.equal([issue.loc, issue.type, issue.ctx.cause], [['body', 'cursor'], 'cursor_invalid', 'empty']);
  assert.match(issue.msg, /leave cursor out \(or send null\) to start from the first page/);
  assert.is((await search({ limit: 1, cursor: null })).status, 200, 'null still starts from the first page');
  const garbage = (await search({ cursor: 'garbage' })).json().detail[0];
  assert.equal([garbage.type, garbage.ctx.cause], ['cursor_invalid', 'foreign']);
  assert.match(garbage.msg, /leave cursor out to start from the first page/);
  const other = (await search({ cursor: (await search({ limit: 1 })).json().next_cursor, query: 'soil' })).json().detail[0];
  assert.equal([other.type, other.ctx.cause], ['cursor_invalid', 'other_request']);
  assert.match(other.msg, /leave cursor out to start from the first page/);
});

test('semantic mode falls back to keyword and says so; a wired semantic search ranks by distance', async () => {
  const fallback = (await search({ query: 'soil', mode: 'semantic', limit: 5 })).json();
  assert.is(fallback.mode, 'keyword');
  assert.is(fallback.requested_mode, 'semantic');
  assert.is(fallback.mode_unavailable.reason, 'no_vectors', 'the local lane is on, but nothing is embedded yet');
  assert.match(fallback.mode_unavailable.message, /backfill/);
  assert.is(fallback.ranked_count, 0);
  assert.is(fallback.unranked_count, 5);
  assert.is(fallback.model, null);
  assert.ok(fallback.papers.every((p: any) => p.distance === null));
  const next = (await search({ query: 'soil', mode: 'semantic', limit: 5, cursor: fallback.next_cursor })).json();
  assert.is(next.mode, 'keyword', 'a fallback cursor keeps paging the fallback');
  assert.is(next.papers.length, 5);
  assert.is((await search({ mode: 'semantic' })).json().mode_unavailable.reason, 'no_query');

  const ids = t.ctx.db.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as number[];
  const fake: SemanticSearch = async (_ctx, _query, options) => ({
    model: 'fake-model',
    results: ids.filter((id) => !options.documentIds || options.documentIds.includes(id)).map((id) => ({ document_id: id, distance: (id % 7) / 10 })).sort((a, b) => a.distance - b.distance).slice(0, options.limit),
  });
  useSemanticSearch(t.ctx, fake);
  const ranked = (await search({ query: 'anything', mode: 'semantic', limit: 4, categories: ['Ecology'] })).json();
  assert.is(ranked.mode, 'semantic');
  assert.is(ranked.model, 'fake-model');
  assert.is(ranked.ranked_count, 4);
  assert.ok(ranked.papers.every((p: any) => p.categories.includes('Ecology') && typeof p.distance === 'number'));
  const page2 = (await search({ query: 'anything', mode: 'semantic', limit: 4, categories: ['Ecology'], cursor: ranked.next_cursor })).json();
  assert.ok(page2.papers[0].distance >= ranked.papers[3].distance);
  assert.not.ok(page2.papers.some((p: any) => ranked.papers.some((q: any) => q.id === p.id)));

  // Semantic ranking gone between pages (embeddings turned off): its cursor is refused for that reason, not as a forgery.
  useSemanticSearch(t.ctx, async () => ({ unavailable: 'embeddings_off' }));
  const gone = await search({ query: 'anything', mode: 'semantic', limit: 4, categories: ['Ecology'], cursor: ranked.next_cursor });
  assert.is(gone.status, 422);
  const issue = gone.json().detail[0];
  assert.equal([issue.type, issue.ctx.cause, issue.ctx.reason], ['cursor_invalid', 'semantic_unavailable', 'embeddings_off']);
  assert.match(issue.msg, /no longer available/);
  const restart = (await search({ query: 'anything', mode: 'semantic', limit: 4, categories: ['Ecology'] })).json();
  assert.equal([restart.mode, restart.mode_unavailable.reason], ['keyword', 'embeddings_off'], 'without the cursor: the keyword fallback, said');
  useSemanticSearch(t.ctx, fake);
});

test('the real semantic search, once papers are embedded: ranked by distance with the model named', async () => {
  const { semanticSearch } = await import('../src/similarity/similar.js');
  useSemanticSearch(t.ctx, semanticSearch);
  await t.request('POST', '/api/embeddings/backfill');
  await backfillSettled(t.ctx);
  const ranked = (await search({ query: 'soil carbon', mode: 'semantic', limit: 3 })).json();
  assert.is(ranked.mode, 'semantic', JSON.stringify(ranked.mode_unavailable));
  assert.match(ranked.model, /local/);
  assert.is(ranked.ranked_count, ranked.papers.length);
  const distances = ranked.papers.map((p: any) => p.distance);
  assert.equal(distances, [...distances].sort((a: number, b: number) => a - b));
});

test.run();
