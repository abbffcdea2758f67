/**
 * Conformance audit of the explorer, the reading queue and "why" against the
 * contract: body defaults as the spec writes them, the answer stating the
 * order its page is in, export's default format, saving a saved paper again,
 * and the routines behind a paper.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { routineBody } from './_scheduler.js';
import { addRun, daysAgo } from './_history.js';

let t: TestServer;
let ids: number[];
const search = (body: unknown) => t.request('POST', '/api/explorer/search', { body });

test.before(async () => {
  t = await startTestServer();
  ids = seed(t.ctx, Array.from({ length: 8 }, (_, i) => makeRecord(i + 1, { title: `Soil carbon study ${i + 1}`, publicationDate: `2021-0${1 + (i % 8)}-10` })));
});
test.after(() => t.close());

const corpusOrder = () => t.ctx.db.prepare('SELECT id FROM documents ORDER BY sort_date DESC, id DESC').pluck().all() as number[];

test('ExplorerSearchBody defaults: limit 50, sort newest, keyword mode; every filter optional', async () => {
  const r = await search({});
  assert.is(r.status, 200, r.text);
  const body = r.json();
  assert.equal([body.limit, body.sort, body.mode, body.requested_mode], [50, 'newest', 'keyword', 'keyword']);
  assert.equal(body.papers.map((p: any) => p.id), corpusOrder());
  const nulls = await search({ query: null, cursor: null, date_from: null, date_to: null, authors: [], categories: [], sources: [] });
  assert.is(nulls.status, 200, 'null and empty values are the defaults');
});

test('semantic with no query falls back to the corpus order, and the answer says newest, not the relevance asked for', async () => {
  const body = (await search({ mode: 'semantic', sort: 'relevance', limit: 3 })).json();
  assert.is(body.mode_unavailable.reason, 'no_query');
  assert.equal(body.papers.map((p: any) => p.id), corpusOrder().slice(0, 3));
  assert.is(body.sort, 'newest');
  const next = (await search({ mode: 'semantic', sort: 'relevance', limit: 3, cursor: body.next_cursor })).json();
  assert.equal(next.papers.map((p: any) => p.id), corpusOrder().slice(3, 6), 'its cursor pages on');
});

test('ExplorerExportBody: format defaults to bibtex; the whole match, not a page', async () => {
  const r = await t.request('POST', '/api/explorer/export', { body: { query: 'soil', limit: 2 } });
  assert.is(r.status, 200, r.text);
  assert.match(String(r.headers['content-disposition']), /svc-explorer\.bib/);
  assert.is(r.headers['x-svc-count'], String(ids.length));
  assert.is((r.text.match(/^@\w+\{/gm) ?? []).length, ids.length);
});

test('reading queue: saving a paper already saved (and read) answers it unchanged', async () => {
  assert.is((await t.request('POST', '/api/reading-queue', { body: { document_id: ids[0] } })).status, 201);
  const read = (await t.request('PUT', `/api/reading-queue/${ids[0]}`, { body: { status: 'read' } })).json();
  const again = await t.request('POST', '/api/reading-queue', { body: { document_id: ids[0] } });
  assert.is(again.status, 200);
  const row = again.json();
  assert.equal([row.status, row.read_at_utc, row.updated_at_utc, row.saved_at_utc, row.created], [read.status, read.read_at_utc, read.updated_at_utc, read.saved_at_utc, false]);
  const list = (await t.request('GET', '/api/reading-queue?status=all')).json();
  assert.equal([list.total, list.counts], [1, { unread: 0, read: 1 }]);
  assert.ok(t.ctx.db.prepare('SELECT 1 FROM documents WHERE id = ?').get(ids[0]));
  assert.is((await t.request('DELETE', `/api/reading-queue/${ids[0]}`)).status, 200);
  assert.ok(t.ctx.db.prepare('SELECT 1 FROM documents WHERE id = ?').get(ids[0]), 'the paper is untouched');
});

test('why: the routines whose runs found the paper are named', async () => {
  const routine = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'soil watch' }) })).json().id;
  const exec = addRun(t.ctx, { routineId: routine, startedAt: daysAgo(1), keywords: ['soil carbon'], sources: { crossref: { docs: [ids[1]!], newDocs: [ids[1]!] } } });
  const why = (await t.request('GET', `/api/documents/${ids[1]}/why`)).json();
  assert.equal(why.routines, [{ id: routine, name: 'soil watch', exists: true }]);
  const run = why.executions.find((e: any) => e.execution_id === exec);
  assert.equal([run.routine.id, run.source, run.first_found_by_this_run], [routine, 'crossref', true]);
  assert.equal(run.terms.find((x: any) => x.kind === 'keyword'), { term: 'soil carbon', kind: 'keyword', fields: ['title'] });
});

test('svc-corpus(1) names the fallback reasons semantic mode gives, and points to the analytics, watchdog and lifecycle commands', async () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc-corpus.1'), 'utf8').replace(/\\-/g, '-');
  const given = new Set<string>();
  given.add((await search({ mode: 'semantic' })).json().mode_unavailable.reason);
  given.add((await search({ query: 'soil', mode: 'semantic' })).json().mode_unavailable.reason);
  for (const reason of [...given, 'embeddings_off', 'fallback_continued']) assert.ok(page.includes(reason), `reason ${reason} documented`);
  for (const command of ['svc analytics', 'svc watchdog', 'svc lifecycle check', 'svc lifecycle show']) assert.match(page, new RegExp(`\\b${command.replace(' ', '\\s+')}`), command);
});

test.run();
