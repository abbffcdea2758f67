import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { makeRecord } from './_corpus.js';
import { mergeRecords } from '../src/corpus/merge.js';

test('a database from before schemas 6, 12 and 13 migrates without losing papers; facet rows are backfilled', () => {
  const db = new Sqlite(':memory:');
  const now = () => '2026-11-21T00:00:00.000Z';
  migrate(db, MIGRATIONS.filter((m) => ![6, 12, 13].includes(m.version)), now);
  mergeRecords(db, [{ record: makeRecord(1, { authors: [{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }], categories: ['Ecology', 'Soil'] }), rank: 0 }], now());
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
    { facet: 'years', value: String(db.prepare('SELECT year FROM documents').pluck().get()), count: 1 },
  ]);
  db.close();
});

test.run();
