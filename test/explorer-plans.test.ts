/**
 * The explorer reads a page by different plans depending on how many papers
 * match (repo.ts newestPlan: list and sort, or walk the date index). Whatever
 * the plan, the answer must be the one a direct SQL query gives: these filters
 * match more than WALK_MIN_MATCHES papers, so the walk is taken.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import type { Context } from '../src/context.js';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { flushSearchIndex } from '../src/corpus/search-index.js';
import { searchExplorer } from '../src/explorer/search.js';
import { parseSearchBody } from '../src/explorer/filters.js';
import { newestPlan, planner, WALK_MIN_MATCHES } from '../src/explorer/repo.js';
import { makeRecord } from './_corpus.js';

const now = () => '2026-11-21T00:00:00.000Z';
const db = new Sqlite(':memory:');
db.pragma('foreign_keys = ON');
migrate(db, MIGRATIONS, now);
const ctx = { db } as Context;
const N = 3 * WALK_MIN_MATCHES + 300;
const records = Array.from({ length: N }, (_, i) =>
  makeRecord(i + 1, {
    title: `${i % 5 === 0 ? 'Rare' : 'Common'} soil study ${i + 1}`,
    categories: [i % 2 ? 'Odd' : 'Even'],
    source: i % 3 ? 'crossref' : 'arxiv',
    // Few distinct dates: the id tie-break decides most of the order.
    publicationDate: `${2000 + (i % 7)}-0${1 + (i % 3)}-01`,
  }),
);
for (let i = 0; i < N; i += 1000) mergeRecords(db, records.slice(i, i + 1000).map((record, rank) => ({ record, rank })), now());
flushSearchIndex(db);

const direct = (where: string, ...args: unknown[]) =>
  db.prepare(`SELECT d.id FROM documents d WHERE ${where} ORDER BY d.sort_date DESC, d.id DESC`).pluck().all(...args) as number[];
const inFts = `d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'soil')`;

async function pages(body: Record<string, unknown>, limit: number, count: number): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < count; i++) {
    const answer = await searchExplorer(ctx, parseSearchBody({ ...body, limit, cursor }));
    seen.push(...answer.papers.map((p) => p.id));
    cursor = answer.next_cursor;
    if (!cursor) break;
  }
  return seen;
}

test('many matches: the date-index walk answers what direct SQL answers, page after page', async () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ query: 'soil' }, inFts, 'probe'],
    [{ query: 'soil', categories: ['Odd'] }, `${inFts} AND d.id IN (SELECT document_id FROM document_categories WHERE category = 'Odd')`, 'probe'],
    [{ categories: ['Even'], sources: ['crossref'] }, `d.id IN (SELECT document_id FROM document_categories WHERE category = 'Even') AND d.id IN (SELECT document_id FROM document_sources WHERE source = 'crossref')`, 'walk'],
    [{ sources: ['crossref'], date_to: '2004-12-31' }, `d.id IN (SELECT document_id FROM document_sources WHERE source = 'crossref') AND d.sort_date <> '' AND d.sort_date <= '2004-12-31'`, 'walk'],
  ];
  for (const probeMinShare of [0.1, 2]) {
    // 2: no query is common enough to be tested per row, so the query's matches are listed and the date index walked.
    planner.probeMinShare = probeMinShare;
    for (const [body, where, plan] of cases) {
      const request = parseSearchBody(body);
      assert.is(newestPlan(db, request.filters), probeMinShare > 1 ? 'walk' : plan, JSON.stringify(body));
      assert.equal(await pages(body, 200, 3), direct(where).slice(0, 600), JSON.stringify(body));
    }
  }
  planner.probeMinShare = 0.1;
});

test('few matches or a selective combination: the matches are listed and sorted, same answer', async () => {
  const rare = parseSearchBody({ query: 'rare' });
  assert.is(newestPlan(db, rare.filters), 'set');
  const expected = direct(`d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'rare')`);
  assert.equal(await pages({ query: 'rare' }, 200, 10), expected);
  // Two filters each matching many papers but, together, few (independence makes the estimate ~N/4).
  const both = parseSearchBody({ query: 'rare', categories: ['Odd'] });
  assert.is(newestPlan(db, both.filters), 'set');
});

test('relevance: ranked in the full-text index, filters applied, pages continue by score', async () => {
  const ranked = db
    .prepare(
      `SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'rare' AND rowid IN (SELECT document_id FROM document_categories WHERE category = 'Odd') ORDER BY rank, rowid`,
    )
    .pluck()
    .all() as number[];
  assert.equal(await pages({ query: 'rare', categories: ['Odd'], sort: 'relevance' }, 50, 20), ranked);
  const dated = await pages({ query: 'rare', date_from: '2005-01-01', sort: 'relevance' }, 50, 20);
  assert.ok(dated.length > 0);
  const dates = db.prepare(`SELECT count(*) FROM documents WHERE id IN (SELECT value FROM json_each(?)) AND sort_date < '2005-01-01'`).pluck().get(JSON.stringify(dated));
  assert.is(dates, 0, 'the date window applies to relevance pages');
});

test.run();
