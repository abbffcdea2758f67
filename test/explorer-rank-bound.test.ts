// Relevance past RANK_BOUND matches: ranked among the most recently added
// matches unless the request is exhaustive, said in the answer, with pages
// that keep the first page's window. The corpus is real: RANK_BOUND + 40
// papers merged through the runs' path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { RANK_BOUND } from '../src/explorer/search.js';
import { runCliInProcess } from './_cli.js';

let t: TestServer;
let strongest: number[] = [];
let all: number[] = [];
const search = (body: unknown) => t.request('POST', '/api/explorer/search', { body });
const EXTRA = 40;

test.before(async () => {
  t = await startTestServer();
  // Added first, so outside the most recently added RANK_BOUND: the best bm25 matches of all (short, the word three times).
  strongest = seed(t.ctx, [1, 2, 3].map((n) => makeRecord(n, { title: 'glacier glacier glacier', abstract: 'glacier', categories: ['Ice'] })));
  const rest = [];
  for (let n = 4; n <= RANK_BOUND + EXTRA; n++) {
    rest.push(makeRecord(n, { title: `Mass balance of a mountain glacier, site ${n}`, abstract: `Field measurements of ablation and accumulation over several seasons at site ${n}.`, categories: n % 100 === 0 ? ['Ice'] : ['Hydrology'] }));
  }
  all = [...strongest, ...seed(t.ctx, rest)];
});
test.after(async () => t.close());

test('past the bound, relevance ranks the most recently added matches and says so; exhaustive ranks every match', async () => {
  const bounded = (await search({ query: 'glacier', sort: 'relevance', limit: 10 })).json();
  assert.equal(bounded.ranking, { exhaustive: false, ranked_papers: RANK_BOUND, message: bounded.ranking.message });
  assert.match(bounded.ranking.message, /most recently added/);
  assert.match(bounded.ranking.message, /exhaustive/);
  const window = new Set(all.slice(-RANK_BOUND));
  for (const p of bounded.papers) assert.ok(window.has(p.id), `paper ${p.id} is among the most recently added ${RANK_BOUND}`);
  // The same order as bm25 over exactly that window, issued raw.
  const floor = all[all.length - RANK_BOUND - 1];
  const raw = t.ctx.db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? AND rowid > ? ORDER BY bm25(documents_fts), rowid LIMIT 10').pluck().all('glacier', floor);
  assert.equal(bounded.papers.map((p: any) => p.id), raw);

  const exhaustive = (await search({ query: 'glacier', sort: 'relevance', limit: 10, exhaustive: true })).json();
  assert.equal(exhaustive.ranking, { exhaustive: true, ranked_papers: null, message: null });
  assert.equal(exhaustive.papers.slice(0, 3).map((p: any) => p.id).sort((a: number, b: number) => a - b), strongest, 'the strongest matches, added first, lead the exhaustive ranking');
  const rawAll = t.ctx.db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank, rowid LIMIT 10').pluck().all('glacier');
  assert.equal(exhaustive.papers.map((p: any) => p.id), rawAll);
});

test('at or under the bound every match is ranked: rarer words, and filters that narrow the matches', async () => {
  const rare = (await search({ query: 'glacier glacier', sort: 'relevance', categories: ['Ice'], limit: 500 })).json();
  assert.equal(rare.ranking, { exhaustive: true, ranked_papers: null, message: null });
  assert.is(rare.papers.length, 3 + Math.floor((RANK_BOUND + EXTRA) / 100));
  assert.equal(rare.papers.slice(0, 3).map((p: any) => p.id).sort((a: number, b: number) => a - b), strongest);
  const few = (await search({ query: '"site 42"', sort: 'relevance' })).json();
  assert.is(few.ranking.exhaustive, true);
  // Newest first lists every match in corpus order; it has no ranking to qualify.
  assert.not.ok('ranking' in (await search({ query: 'glacier', limit: 1 })).json());
});

test('a date window bounds the ranking to the most recently added matches inside it, not the oldest', async () => {
  // Every paper is dated January 2020, so the window admits them all: the same window as without it.
  const seen: number[] = [];
  let cursor: string | null = null;
  do {
    const page: any = (await search({ query: 'glacier', sort: 'relevance', date_from: '2020-01-01', date_to: '2020-01-31', limit: 500, cursor })).json();
    assert.is(page.ranking.exhaustive, false);
    seen.push(...page.papers.map((p: any) => p.id));
    cursor = page.next_cursor;
  } while (cursor);
  assert.is(seen.length, RANK_BOUND);
  assert.equal([...seen].sort((a, b) => a - b), all.slice(-RANK_BOUND));
});

test('pages of a bounded ranking keep the first page window while papers are added, and cover it once', async () => {
  const seen: number[] = [];
  let cursor: string | null = null;
  let added = 0;
  const late: number[] = [];
  do {
    const page: any = (await search({ query: 'glacier', sort: 'relevance', limit: 500, cursor })).json();
    assert.is(page.ranking.exhaustive, false);
    seen.push(...page.papers.map((p: any) => p.id));
    cursor = page.next_cursor;
    if (added < 3) {
      // A strong match added between pages changes every bm25 score (the statistics move); later pages
      // still rank the first page's papers, and these tie by shape (ties keep id order), so none repeats or goes
      // missing, and the new one waits for a new search. (Papers scoring almost alike can still swap: svc-corpus(1).)
      late.push(...seed(t.ctx, [makeRecord(900_000 + added, { title: 'glacier glacier glacier glacier', abstract: 'glacier' })]));
      added++;
    }
  } while (cursor);
  assert.is(new Set(seen).size, seen.length, 'no paper twice');
  const window = all.slice(-RANK_BOUND);
  assert.ok(window.every((id) => seen.includes(id)), 'every paper of the first page window is on some page');
  assert.is(seen.length, RANK_BOUND);
  assert.not.ok(strongest.some((id) => seen.includes(id)), 'nothing below the floor');
  assert.not.ok(late.some((id) => seen.includes(id)), 'nothing added after the first page');
  const fresh = (await search({ query: 'glacier', sort: 'relevance', limit: 3 })).json();
  assert.equal(fresh.papers.map((p: any) => p.id).sort((a: number, b: number) => a - b), late, 'a new search ranks them first');
});

test('a bounded ranking cursor and an exhaustive one are not interchangeable; exhaustive must be a boolean', async () => {
  const bounded = (await search({ query: 'glacier', sort: 'relevance', limit: 1 })).json();
  const exhaustive = (await search({ query: 'glacier', sort: 'relevance', limit: 1, exhaustive: true })).json();
  const crossed = await search({ query: 'glacier', sort: 'relevance', limit: 1, exhaustive: true, cursor: bounded.next_cursor });
  assert.is(crossed.status, 422);
  assert.is(crossed.json().detail[0].type, 'cursor_invalid');
  assert.match(crossed.json().detail[0].msg, /exhaustive/, 'the refusal names what differs');
  assert.is((await search({ query: 'glacier', sort: 'relevance', limit: 1, cursor: exhaustive.next_cursor })).status, 422);
  assert.is((await search({ query: 'glacier', sort: 'relevance', limit: 1, exhaustive: true, cursor: exhaustive.next_cursor })).status, 200);
  // A newest-first cursor sent with sort relevance belongs to another request; it is not a forgery.
  const newest = (await search({ query: 'glacier', limit: 1 })).json();
  const otherSort = await search({ query: 'glacier', sort: 'relevance', limit: 1, cursor: newest.next_cursor });
  assert.is(otherSort.status, 422);
  assert.is(otherSort.json().detail[0].ctx.cause, 'other_request');
  const wrong = await search({ query: 'glacier', sort: 'relevance', exhaustive: 'yes' });
  assert.is(wrong.status, 422);
  assert.equal(wrong.json().detail[0].loc, ['body', 'exhaustive']);
  // Only a relevance ranking can be exhaustive: with the newest-first order it is refused, not ignored.
  const newestExhaustive = await search({ query: 'glacier', exhaustive: true });
  assert.is(newestExhaustive.status, 422);
  assert.equal([newestExhaustive.json().detail[0].loc, newestExhaustive.json().detail[0].type], [['body', 'exhaustive'], 'exhaustive_without_relevance']);
  assert.is((await search({ query: 'glacier', exhaustive: false })).status, 200, 'false is the default, sent or not');
});

test('svc explore: the bounded ranking is said in words, --exhaustive ranks every match, and goes only with --sort relevance', async () => {
  const env = t.dirs.env;
  const text = await runCliInProcess(['explore', 'glacier', '--sort', 'relevance', '--limit', '3'], { env });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`More than ${RANK_BOUND.toLocaleString('en-US')} papers match: ranked among the ${RANK_BOUND.toLocaleString('en-US')} most recently added.*--exhaustive`));
  const json = await runCliInProcess(['explore', 'glacier', '--sort', 'relevance', '--limit', '6', '--exhaustive', '--json'], { env });
  assert.is(json.code, 0, json.stderr);
  const answer = JSON.parse(json.stdout);
  assert.is(answer.ranking.exhaustive, true);
  // The strongest matches of all were added first: only an exhaustive ranking reaches them (after the stronger ones added while paging).
  assert.ok(strongest.every((id) => answer.papers.some((p: any) => p.id === id)), json.stdout);
  const first = JSON.parse((await runCliInProcess(['explore', 'glacier', '--sort', 'relevance', '--limit', '1', '--exhaustive', '--json'], { env })).stdout);
  const forgot = await runCliInProcess(['explore', 'glacier', '--sort', 'relevance', '--limit', '1', '--next', first.next_cursor], { env });
  assert.is(forgot.code, 2);
  assert.match(forgot.stderr, /--next: .*--exhaustive/, 'a next page without --exhaustive is told what to add');
  const refused = await runCliInProcess(['explore', 'glacier', '--exhaustive'], { env });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /--exhaustive goes with --sort relevance/);
});

test.run();
