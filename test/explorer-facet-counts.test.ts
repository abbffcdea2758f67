import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import type { Context } from '../src/context.js';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { flushSearchIndex } from '../src/corpus/search-index.js';
import { explorerFacets } from '../src/explorer/facets.js';
import { parseFacetsBody } from '../src/explorer/filters.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { makeRecord } from './_corpus.js';

const now = () => '2026-11-21T00:00:00.000Z';

function openDb() {
  const db = new Sqlite(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, now);
  return db;
}

const merge = (db: Sqlite.Database, records: NormalizedRecord[]) => mergeRecords(db, records.map((record, rank) => ({ record, rank })), now()).map((r) => r.documentId);

/** The counters, zero rows left out. */
const counters = (db: Sqlite.Database) => db.prepare('SELECT facet, value, count FROM explorer_facet_counts WHERE count > 0 ORDER BY facet, value').all();

/** The same counts recomputed from the documents' own JSON and provenance, not from the derived rows. */
const recount = (db: Sqlite.Database) =>
  db
    .prepare(
      `SELECT facet, value, count FROM (
         SELECT 'authors' AS facet, lower(trim(json_extract(j.value, '$.name'))) AS value, count(DISTINCT d.id) AS count FROM documents d, json_each(d.authors_json) j
           WHERE trim(coalesce(json_extract(j.value, '$.name'), '')) <> '' GROUP BY 2
         UNION ALL SELECT 'categories', j.value, count(DISTINCT d.id) FROM documents d, json_each(d.categories_json) j WHERE j.type = 'text' AND j.value <> '' GROUP BY 2
         UNION ALL SELECT 'sources', source, count(DISTINCT document_id) FROM document_sources GROUP BY 2
         UNION ALL SELECT 'years', coalesce(CAST(year AS TEXT), 'undated'), count(*) FROM documents GROUP BY 2
       ) ORDER BY facet, value`,
    )
    .all();

const assertExact = (db: Sqlite.Database, step: string) => {
  flushSearchIndex(db);
  assert.equal(counters(db), recount(db), step);
};

test('facet counters stay exact across inserts, joins, folds, year changes and deletes', () => {
  const db = openDb();
  // Inserts: an author named twice on one paper counts once; undated papers count as undated.
  merge(db, [
    makeRecord(1, { authors: [{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }, { name: 'ada lovelace ' }], categories: ['Ecology', 'Soil', 'Ecology'] }),
    makeRecord(2, { authors: [{ name: 'Grace Hopper' }], categories: ['Marine'], publicationDate: undefined, datePrecision: undefined }),
    makeRecord(3, { source: 'arxiv', doi: undefined, ids: { arxiv: '2101.00003' }, authors: [{ name: 'Alan Turing' }], categories: ['cs.LG'], publicationDate: '2019-05-01' }),
  ]);
  // Before the flush, the year and source counters are already exact (they follow the rows directly).
  assert.is(db.prepare("SELECT count FROM explorer_facet_counts WHERE facet = 'years' AND value = 'undated'").pluck().get(), 1);
  assertExact(db, 'after inserts');

  // A join by DOI from another source: a second source for the paper, new categories, no new paper.
  merge(db, [makeRecord(2, { source: 'openalex', nativeId: 'W2', authors: [{ name: 'Grace Hopper' }], categories: ['Marine', 'Oceans'], publicationDate: '2018-02-03' })]);
  assertExact(db, 'after a join (another source, new category, a date where there was none)');
  assert.is(db.prepare("SELECT count(*) FROM explorer_facet_counts WHERE facet = 'years' AND value = 'undated' AND count > 0").pluck().get(), 0);

  // A fold: a record whose DOI names paper 1 and arXiv id names paper 3 proves they are one work.
  const before = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  merge(db, [makeRecord(1, { source: 'europepmc', nativeId: 'E1', ids: { arxiv: '2101.00003' }, categories: ['Ecology'] })]);
  assert.is(db.prepare('SELECT count(*) FROM documents').pluck().get(), before - 1, 'two papers folded into one');
  assertExact(db, 'after a fold');

  // The published version's date replaces the preprint's year.
  merge(db, [makeRecord(1, { source: 'crossref', nativeId: 'native-1', publicationDate: '2021-07-09', venue: 'Journal', type: 'journal-article' })]);
  assertExact(db, 'after a year change');

  // Deletes: the paper's rows go with it (cascade), and so do its counts.
  const id = db.prepare("SELECT id FROM documents WHERE doi = '10.5555/test.2'").pluck().get();
  db.prepare('DELETE FROM documents WHERE id = ?').run(id);
  assertExact(db, 'after a delete');
  // Deleting a paper queued but not yet derived leaves nothing behind either.
  const [fresh] = merge(db, [makeRecord(9, { authors: [{ name: 'Late Author' }], categories: ['Late'] })]);
  db.prepare('DELETE FROM documents WHERE id = ?').run(fresh);
  assertExact(db, 'after deleting an underived paper');
  assert.is(db.prepare('SELECT count(*) FROM document_facets_pending').pluck().get(), 0);
  db.close();
});

test('counters stay exact when one batch holds a new work, its second source, a repeat of one source and a re-sighting', () => {
  const db = openDb();
  const work = (source: string, nativeId: string) => makeRecord(20, { source, nativeId, publicationDate: '2022-02-02' });
  merge(db, [work('crossref', 'A'), work('crossref', 'A2'), work('openalex', 'W20'), makeRecord(21, { publicationDate: undefined, datePrecision: undefined })]);
  assertExact(db, 'one batch');
  assert.is(db.prepare("SELECT count FROM explorer_facet_counts WHERE facet = 'sources' AND value = 'crossref'").pluck().get(), 2, 'a source counts a paper once');
  merge(db, [work('crossref', 'A'), work('openalex', 'W20'), work('arxiv', 'X20')]);
  assertExact(db, 're-sightings and a third source');

  // Within one batch, a paper new to the corpus (from a source and a year never seen before) is
  // folded away, and another changes year: the counts come down before the batch adds them.
  merge(db, [
    makeRecord(30, { source: 'biorxiv', nativeId: 'B30', doi: undefined, ids: { arxiv: '2301.00030' }, publicationDate: '1999-03-03', type: 'preprint' }),
    makeRecord(31, { source: 'hal', nativeId: 'H31', publicationDate: '1998-04-04' }),
    makeRecord(31, { source: 'dblp', nativeId: 'D31', ids: { arxiv: '2301.00030' }, publicationDate: '1998-04-04' }),
    makeRecord(40, { source: 'zenodo', nativeId: 'Z40', doi: undefined, ids: { arxiv: '2301.00040' }, publicationDate: '1997-05-05', type: 'preprint' }),
    makeRecord(40, { source: 'pubmed', nativeId: 'P40', ids: { arxiv: '2301.00040' }, publicationDate: '1996-06-06', type: 'journal-article', venue: 'A Journal' }),
  ]);
  assert.is(db.prepare('SELECT count(*) FROM documents WHERE arxiv_id IN (?, ?)').pluck().get('2301.00030', '2301.00040'), 2, 'one paper folded, one joined');
  assertExact(db, 'a fold and a year change inside the batch that brought the values');
  db.close();
});

test('a paper written without merge is never deleted from a full-text index it is not in; once changed, the next flush indexes it', () => {
  const db = openDb();
  merge(db, [makeRecord(1, { title: 'Merged soil paper' })]);
  flushSearchIndex(db);
  const id = db
    .prepare("INSERT INTO documents (title, title_key, abstract, first_seen_at_utc, updated_at_utc) VALUES ('Hand written peat paper', 'hand written peat paper', 'Peat.', ?, ?)")
    .run(now(), now()).lastInsertRowid;
  db.prepare("UPDATE documents SET title = 'Hand written bog paper' WHERE id = ?").run(id);
  flushSearchIndex(db);
  db.prepare("INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')").run();
  const search = (word: string) => db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?').pluck().all(word);
  assert.equal(search('bog'), [Number(id)]);
  assert.equal(search('peat'), [Number(id)], 'its abstract is indexed too');
  assert.equal(search('soil').length, 1);
  db.prepare('DELETE FROM documents WHERE id = ?').run(id);
  db.prepare("INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')").run();
  assert.equal(search('bog'), []);
  db.close();
});

test('beyond the bound a filtered facet says exact: false and counts over the most recent matching papers; total stays exact', () => {
  const db = openDb();
  const ctx = { db } as Context;
  const records = Array.from({ length: 12 }, (_, i) =>
    makeRecord(i + 1, { title: `Soil study ${i + 1}`, categories: [i < 6 ? 'Old' : 'New'], source: i % 2 ? 'arxiv' : 'crossref', publicationDate: `${2000 + i}-01-01` }),
  );
  const ids = merge(db, records);
  const bound = 5;
  const body = explorerFacets(ctx, parseFacetsBody({ query: 'soil' }), bound);
  assert.is(body.total, 12, 'total is exact beyond the bound');
  assert.is(body.exact, false);
  for (const name of ['authors', 'categories', 'sources', 'years'] as const) {
    assert.is(body.facets[name].exact, false, name);
    assert.is(body.facets[name].counted_papers, bound, name);
  }
  // Counted over the 5 most recently added matching papers: ids 8..12, all in 'New'.
  const recent = ids.slice(-bound);
  assert.equal(body.facets.categories.values, [{ value: 'New', count: bound, selected: false }]);
  assert.is(body.facets.years.values.reduce((n, v) => n + v.count, 0), bound);
  const years = db.prepare(`SELECT DISTINCT year FROM documents WHERE id IN (${recent.join(',')}) ORDER BY year DESC`).pluck().all().map(String);
  assert.equal(body.facets.years.values.map((v) => v.value), years);

  // Within the bound: exact, and counted over every matching paper.
  const within = explorerFacets(ctx, parseFacetsBody({ query: 'soil', categories: ['Old'] }), bound);
  assert.is(within.total, 6);
  assert.is(within.facets.sources.exact, false, 'the sources facet ignores nothing but its own filter: 6 papers > bound');
  assert.is(within.facets.categories.exact, false, 'the category facet ignores the category filter: 12 papers');
  assert.is(within.facets.categories.values.find((v) => v.value === 'Old')?.selected, true, 'a selected value is listed even when outside the counted papers');
  const small = explorerFacets(ctx, parseFacetsBody({ query: 'soil', categories: ['Old'] }), 20);
  assert.is(small.exact, true);
  assert.is(small.facets.sources.counted_papers, 6);
  assert.equal(small.facets.categories.values.map((v) => [v.value, v.count]), [['New', 6], ['Old', 6]]);

  // No filter: every facet read from the counters, exact whatever the bound.
  const all = explorerFacets(ctx, parseFacetsBody({}), 1);
  assert.is(all.exact, true);
  assert.is(all.total, 12);
  assert.is(all.facets.categories.counted_papers, 12);
  assert.equal(all.facets.categories.values.map((v) => [v.value, v.count]), [['New', 6], ['Old', 6]]);
  assert.ok(all.method.includes('exact: false'));
  db.close();
});

test.run();
