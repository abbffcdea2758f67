/**
 * Upgrade of an installation whose local lexical lane never stored its
 * document frequencies (schema 24 and before): its lexical vectors were
 * weighted by one backfill's or one run's counts, so they are removed at
 * upgrade and the next backfill embeds every paper again with the corpus's
 * stored counts. Other lanes' vectors stay.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { openDatabase } from '../src/db/open.js';
import { backfillSettled } from '../src/similarity/backfill.js';
import { embedLexical, emptyStats, observe } from '../src/similarity/lexical.js';
import { readStats, readVector, vectorToBlob } from '../src/similarity/repo.js';
import { startTestServer, tempDirs } from './_setup.js';
import { INSTALLATIONS, OLD_NOW, buildOldDatabase, fillOldDatabase } from './_old-schema.js';

const now = () => '2026-11-27T12:00:00.000Z';
const KEY = 'local/lexical-hash-v1';
const OTHER = 'openai/text-embedding-3-small';

test('lexical vectors written without stored statistics are removed at upgrade; status counts them missing; the next backfill embeds them with the stored corpus counts', async () => {
  const schema19 = INSTALLATIONS.find((i) => i.name.startsWith('schema 19'))!;
  const inst = { name: 'schema 24 (1-13, 15-24)', versions: [...schema19.versions, 20, 21, 22, 23, 24] };
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const old = buildOldDatabase(file, inst.versions);
    fillOldDatabase(old, inst.versions, dirs.root);
    // The local lane on, every paper embedded, the vec0 index built; no statistics row (never written).
    old.prepare("UPDATE settings SET value_json = '\"local\"' WHERE group_name = 'embeddings' AND key = 'provider'").run();
    const ids = old.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as number[];
    const skewed = new Float32Array(384).fill(1 / Math.sqrt(384));
    const put = old.prepare('INSERT INTO embedding_vectors (model, document_id, dimension, vector, created_at_utc) VALUES (?, ?, ?, ?, ?)');
    for (const id of ids) put.run(KEY, id, 384, vectorToBlob(skewed), OLD_NOW);
    put.run(OTHER, ids[0], 4, vectorToBlob(new Float32Array([0.5, 0.5, 0.5, 0.5])), OLD_NOW);
    sqliteVec.load(old);
    old.exec('CREATE VIRTUAL TABLE embedding_index USING vec0 (embedding bit[384])');
    for (const id of ids) old.prepare('INSERT INTO embedding_index (rowid, embedding) VALUES (?, vec_quantize_binary(?))').run(BigInt(id), vectorToBlob(skewed));
    old.prepare("DELETE FROM embedding_index_state").run();
    old.prepare('INSERT INTO embedding_index_state (id, model, dimension, vectors, built_at_utc) VALUES (1, ?, 384, ?, ?)').run(KEY, ids.length, OLD_NOW);
    old.close();

    const { db } = openDatabase(file, now);
    try {
      assert.is(db.prepare('SELECT count(*) FROM embedding_vectors WHERE model = ?').pluck().get(KEY), 0, 'the lexical vectors are removed');
      assert.is(db.prepare('SELECT count(*) FROM embedding_vectors WHERE model = ?').pluck().get(OTHER), 1, 'another lane’s vector stays');
      assert.is(db.prepare('SELECT count(*) FROM embedding_index_state').pluck().get(), 0, 'the index of that model is to be rebuilt');
      assert.is(readStats(db, KEY), undefined);
    } finally {
      db.close();
    }

    const t = await startTestServer({ env: { SVC_DATA_DIR: dirs.dataDir, SVC_STATE_DIR: dirs.stateDir } });
    try {
      let s = (await t.request('GET', '/api/embeddings/status')).json();
      assert.equal([s.model, s.embedded, s.missing, s.index.state], [KEY, 0, ids.length, 'missing'], 'status counts every paper missing');
      const similar = (await t.request('GET', `/api/documents/${ids[1]}/similar`)).json();
      assert.match(JSON.stringify(similar), /svc embed backfill/, `similar names what to run: ${JSON.stringify(similar)}`);

      assert.is((await t.request('POST', '/api/embeddings/backfill')).status, 202);
      await backfillSettled(t.ctx);
      s = (await t.request('GET', '/api/embeddings/status')).json();
      assert.equal([s.embedded, s.missing], [ids.length, 0]);
      const docs = t.ctx.db.prepare('SELECT id, title, abstract FROM documents ORDER BY id').all() as { id: number; title: string; abstract: string | null }[];
      const corpus = emptyStats();
      for (const d of docs) observe(corpus, { title: d.title, abstract: d.abstract });
      assert.equal({ ...readStats(t.ctx.db, KEY)!, data: undefined }, { documents: docs.length, counted_through: ids.at(-1)!, data: undefined });
      assert.equal(Array.from(readVector(t.ctx.db, KEY, ids[0]!)!), Array.from(embedLexical(corpus, { title: docs[0]!.title, abstract: docs[0]!.abstract })));

      const rebuilt = await t.request('POST', '/api/embeddings/rebuild');
      assert.is(rebuilt.status, 200, rebuilt.text);
      assert.is(rebuilt.json().vectors, ids.length);
      s = (await t.request('GET', '/api/embeddings/status')).json();
      assert.is(s.index.state, 'ready');
      const legacy = t.ctx.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'embedding_index%' AND name <> 'embedding_index_state'").pluck().all();
      assert.equal(legacy, [], 'the sqlite-vec table of before (and its shadow tables) is dropped by the first build');
    } finally {
      await t.close();
    }
  } finally {
    dirs.cleanup();
  }
});

test.run();
