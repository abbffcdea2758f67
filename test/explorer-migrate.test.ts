import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { makeRecord } from './_corpus.js';
import { mergeRecords } from '../src/corpus/merge.js';

test('a database from before schemas 6, 12, 13 and 20 migrates without losing papers; facet rows are backfilled', () => {
  const db = new Sqlite(':memory:');
  const now = () => '2026-11-21T00:00:00.000Z';
  migrate(db, MIGRATIONS.filter((m) => ![6, 12, 13, 20].includes(m.version)), now);
  // A paper as merge wrote it then (today's merge keeps the counters of schema 13, so it needs them).
  db.prepare(
    `INSERT INTO documents (title, title_key, authors_json, authors_text, publication_date, date_precision, sort_date, year, categories_json, first_seen_at_utc, updated_at_utc)
     VALUES ('Soil ecology at scale', 'soil ecology at scale', ?, 'Ada Lovelace; Grace Hopper', '2020-03-04', 'day', '2020-03-04', 2020, '["Ecology","Soil"]', ?, ?)`,
  ).run(JSON.stringify([{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }]), now(), now());
  db.prepare("INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (1, 'crossref', '10.1/x', ?, ?, '{}')").run(now(), now());
  assert.is(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'document_authors'").pluck().get(), 0);
  migrate(db, MIGRATIONS, now);
  assert.is(db.prepare('SELECT count(*) FROM documents').pluck().get(), 1);
  assert.equal(db.prepare('SELECT author_key FROM document_authors ORDER BY position').pluck().all(), ['ada lovelace', 'grace hopper']);
  assert.equal(db.prepare('SELECT category FROM document_categories ORDER BY category').pluck().all(), ['Ecology', 'Soil']);
  assert.equal(db.prepare('SELECT count(*) FROM reading_queue').pluck().get(), 0);
  const counts = db.prepare('SELECT facet, value, count FROM explorer_facet_counts ORDER BY facet, value').all();
  assert.equal(counts, [
    { facet: 'authors', value: 'ada lovelace', count: 1 },
    { facet: 'authors', value: 'grace hopper', count: 1 },
    { facet: 'categories', value: 'Ecology', count: 1 },
    { facet: 'categories', value: 'Soil', count: 1 },
    { facet: 'sources', value: 'crossref', count: 1 },
    { facet: 'years', value: '2020', count: 1 },
  ]);
  // And merging goes on from there: a second paper, counted and indexed like the first.
  mergeRecords(db, [{ record: makeRecord(2, { publicationDate: '2020-05-06' }), rank: 0 }], now());
  assert.is(db.prepare("SELECT count FROM explorer_facet_counts WHERE facet = 'years' AND value = '2020'").pluck().get(), 2);
  assert.is(db.prepare("SELECT count FROM explorer_facet_counts WHERE facet = 'sources' AND value = 'crossref'").pluck().get(), 2);
  db.close();
});

test.run();
