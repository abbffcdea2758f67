/**
 * The whole upgrade path: a database as each older svc left it (the
 * migrations it had, rows shaped like its code wrote them), opened by today's
 * svc. Nothing is lost, derived data is right, the server answers on it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/open.js';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { flushSearchIndex } from '../src/corpus/search-index.js';
import { SvcError } from '../src/errors.js';
import { ROOT, startTestServer, tempDirs } from './_setup.js';
import { LIB_HEADERS, RENDERER } from './_library.js';
import { INSTALLATIONS, KEPT_PAPERS, buildOldDatabase, fillOldDatabase, snapshot, type Installation } from './_old-schema.js';

const now = () => '2026-11-26T12:00:00.000Z';
const NEWEST = Math.max(...MIGRATIONS.map((m) => m.version));
/**
 * Tables of derived state that a migration empties on purpose, to be derived again: the sqlite-vec
 * index's state row says nothing about the HNSW file that replaced it (migration 34), whose next
 * query builds it from embedding_vectors. Every other table keeps every row.
 */
const CLEARED_AS_DERIVED = new Set(['embedding_index_state']);

/** Schema objects as SQL text (a table rebuilt or a column added elsewhere than a fresh database has it shows here). */
function schemaOf(db: Database): string[] {
  return (db.prepare("SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS s FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").pluck().all() as string[])
    .map((s) => s.replace(/\s+/g, ' '));
}

let freshSchema: string[] = [];
test.before(() => {
  const fresh = new Sqlite(':memory:');
  migrate(fresh, MIGRATIONS, now);
  freshSchema = schemaOf(fresh);
  fresh.close();
});

/** Facet counts recomputed from the documents themselves (the explorer's definition), zero rows left out. */
function expectedFacetCounts(db: Database) {
  return db.prepare(`
    SELECT 'authors' AS facet, lower(trim(j.value ->> '$.name')) AS value, count(DISTINCT d.id) AS count FROM documents d, json_each(d.authors_json) j
      WHERE trim(coalesce(j.value ->> '$.name', '')) <> '' GROUP BY 2
    UNION ALL SELECT 'categories', j.value, count(DISTINCT d.id) FROM documents d, json_each(d.categories_json) j WHERE j.type = 'text' AND j.value <> '' GROUP BY 2
    UNION ALL SELECT 'sources', source, count(DISTINCT document_id) FROM document_sources GROUP BY 2
    UNION ALL SELECT 'years', coalesce(CAST(year AS TEXT), 'undated'), count(*) FROM documents GROUP BY 2
    ORDER BY 1, 2`).all();
}

async function checkUpgrade(inst: Installation): Promise<void> {
  const has = (v: number) => inst.versions.includes(v);
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const old = buildOldDatabase(file, inst.versions);
    fillOldDatabase(old, inst.versions, dirs.root);
    const before = snapshot(old);
    old.close();

    const { db, schemaVersion } = openDatabase(file, now);
    try {
      assert.is(schemaVersion, NEWEST, `${inst.name}: upgraded to the newest schema`);
      assert.equal(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all(), MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('foreign_key_check'), [], `${inst.name}: no dangling reference`);
      assert.equal(schemaOf(db), freshSchema, `${inst.name}: the same schema as a new database`);

      // Every row of every old table, every old column, unchanged.
      const after = snapshot(db, before);
      for (const table of Object.keys(before)) {
        if (CLEARED_AS_DERIVED.has(table)) assert.equal(after[table], { ...before[table], rows: [] }, `${inst.name}: ${table} cleared, to be derived again`);
        else assert.equal(after[table], before[table], `${inst.name}: ${table} kept`);
      }

      // Derived data: facet rows, counts and the full-text index are what the documents say.
      flushSearchIndex(db);
      assert.is(db.prepare('SELECT count(*) FROM documents_fts_pending').pluck().get(), 0);
      db.exec("INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')");
      assert.equal(db.prepare('SELECT facet, value, count FROM explorer_facet_counts WHERE count <> 0 ORDER BY facet, value').all(), expectedFacetCounts(db), `${inst.name}: facet counts`);
      assert.is(db.prepare('SELECT count(*) FROM explorer_facet_counts WHERE count < 0').pluck().get(), 0);
      const match = (q: string) => db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rowid').pluck().all(q);
      assert.equal(match('reef'), [1, 4], `${inst.name}: full-text`);
      assert.equal(match('seagrass'), [6], `${inst.name}: the paper a dead run left queued is indexed`);
      assert.equal(match('"long-term"'), [2], `${inst.name}: the edited title is indexed`);
      assert.equal(match('preprint'), [], `${inst.name}: the folded paper is out of the index`);
      assert.equal(db.prepare('SELECT id FROM documents ORDER BY id').pluck().all(), KEPT_PAPERS.map((p) => p.id));
      for (const p of KEPT_PAPERS) {
        assert.equal(db.prepare('SELECT source FROM document_sources WHERE document_id = ? ORDER BY source').pluck().all(p.id), [...p.sources].sort(), `sources of ${p.id}`);
        assert.equal(db.prepare('SELECT category FROM document_categories WHERE document_id = ? ORDER BY category').pluck().all(p.id), [...p.categories].sort());
      }
    } finally {
      db.close();
    }

    // The server starts on it and answers real reads.
    const t = await startTestServer({ env: { SVC_DATA_DIR: dirs.dataDir, SVC_STATE_DIR: dirs.stateDir }, rendererOrigin: RENDERER });
    try {
      const get = async (p: string, headers: Record<string, string> = {}) => {
        const r = await t.request('GET', p, { headers });
        assert.is(r.status, 200, `${inst.name}: GET ${p}: ${r.text.slice(0, 300)} ${r.status === 500 ? t.logLines.filter((l) => /error/i.test(l)).slice(-2).join('\n') : ''}`);
        return r.json();
      };
      const routines = await get('/api/routines');
      assert.equal(routines.routines.map((r: any) => [r.id, r.name, r.is_active]).sort(), [[1, 'Reef weekly', true], [2, 'Paused soil watch', false]]);
      const one = await get('/api/routines/1');
      assert.is(one.parameters?.window_days ?? one.routine?.parameters?.window_days, 30);
      const executions = await get('/api/executions');
      assert.is(executions.total, 4);
      const byId = Object.fromEntries(executions.executions.map((e: any) => [e.id, e]));
      assert.is(byId[1].status, 'completed');
      assert.is(byId[3].status, 'failed');
      assert.is(byId[4].status, 'interrupted', 'a run whose owner died is interrupted at start');
      const docs = await get('/api/executions/1/documents');
      assert.ok(JSON.stringify(docs).includes('Coral reef resilience'), 'papers of a run');
      await get('/api/executions/1/log');
      await get('/api/executions/1/search-record');
      const search = await t.request('POST', '/api/explorer/search', { body: { query: 'reef' } });
      assert.is(search.status, 200, search.text);
      assert.equal(JSON.stringify(search.json()).includes('Undated note on reef fish acoustics'), true, `${inst.name}: explorer search`);
      const facets = await t.request('POST', '/api/explorer/facets', { body: {} });
      assert.is(facets.status, 200, facets.text);
      const why = await get('/api/documents/1/why');
      assert.ok(JSON.stringify(why).includes('biorxiv'), `${inst.name}: why names the folded paper's source`);
      await get('/api/analytics/overview');
      await get('/api/analytics/summary');
      await get('/api/analytics/routine-health');
      await get('/api/configurations');
      const email = await get('/api/settings/email');
      assert.is(JSON.stringify(email).includes('smtp.example.org'), true, 'settings kept');
      const library = await get('/api/library', LIB_HEADERS);
      assert.is(library.configured, has(16));
      if (has(16)) assert.equal(library.counts, { files: 1, retained_bytes: library.counts.retained_bytes, paper_links: 1 });
      if (has(5)) {
        const deliveries = await get('/api/routines/1/deliveries');
        assert.ok(JSON.stringify(deliveries).includes('awaiting_review'));
        const targets = await get('/api/routines/1/delivery-targets');
        assert.not.ok(JSON.stringify(targets).includes('whsec-old'), 'a webhook secret never leaves');
      }
      if (has(6)) assert.is((await get('/api/reading-queue')).total ?? (await get('/api/reading-queue')).items?.length, 2);
      if (has(7)) await get('/api/lifecycle');
      if (has(8)) assert.ok(JSON.stringify(await get('/api/profiles/1/matches')).includes('orcid'));
      if (has(10)) await get('/api/documents/1/links');
      if (has(15)) assert.ok(JSON.stringify(await get('/api/assistant/sessions')).includes('Reef papers'));
      const vault = 'expected_vault_id=00000000-0000-4000-8000-000000000001';
      if (has(16)) {
        const files = await get(`/api/library/files?${vault}`, LIB_HEADERS);
        assert.ok(JSON.stringify(files).includes('Reef Notes.txt'), `${inst.name}: library files`);
      }
      if (has(17)) {
        const projects = await get(`/api/evidence/projects?${vault}`, LIB_HEADERS);
        assert.ok(JSON.stringify(projects).includes('Reef review'));
        const notes = await get(`/api/evidence/projects/00000000-0000-4000-8000-000000000021/notes?${vault}`, LIB_HEADERS);
        assert.ok(JSON.stringify(notes).includes('The key number.'));
      }
      if (has(18)) assert.ok(JSON.stringify(await get(`/api/evidence/projects/00000000-0000-4000-8000-000000000021/answers?${vault}`, LIB_HEADERS)).includes('00000000-0000-4000-8000-000000000031'));
    } finally {
      await t.close();
    }
  } finally {
    dirs.cleanup();
  }
}

for (const inst of INSTALLATIONS) {
  test(`upgrade from ${inst.name}: every row kept, derived data right, the server answers`, () => checkUpgrade(inst));
}

test('a URL setting stored with a user name and password before they were refused loses them at upgrade, and reads never answer the password', async () => {
  for (const inst of [INSTALLATIONS[0]!, INSTALLATIONS[INSTALLATIONS.length - 1]!]) {
    const dirs = tempDirs();
    try {
      const file = path.join(dirs.dataDir, 'svc.db');
      const old = buildOldDatabase(file, inst.versions);
      fillOldDatabase(old, inst.versions, dirs.root);
      const put = old.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES (?, ?, ?, '2026-11-20T09:00:00.000Z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json");
      put.run('cloud', 'url', JSON.stringify('https://al%40ice:hunter2@dav.example.org/remote.php/dav?x=1'));
      put.run('cloud', 'provider', JSON.stringify('webdav'));
      put.run('ai', 'base_url', JSON.stringify('http://bob:s3cret-key@127.0.0.1:11434/v1'));
      put.run('embeddings', 'base_url', JSON.stringify('https://plain.example.org/v1'));
      old.close();
      const { db } = openDatabase(file, now);
      const stored = (group: string, key: string) => JSON.parse(db.prepare('SELECT value_json FROM settings WHERE group_name = ? AND key = ?').pluck().get(group, key) as string);
      assert.is(stored('cloud', 'url'), 'https://dav.example.org/remote.php/dav?x=1', `${inst.name}: the URL keeps all but its userinfo`);
      assert.is(stored('cloud', 'username'), 'al@ice', 'the cloud user name moves to its own setting');
      assert.is(stored('ai', 'base_url'), 'http://127.0.0.1:11434/v1');
      assert.is(stored('embeddings', 'base_url'), 'https://plain.example.org/v1', 'a URL without userinfo is left alone');
      assert.is(stored('email', 'smtp_host'), 'smtp.example.org');
      db.close();
      const t = await startTestServer({ env: { SVC_DATA_DIR: dirs.dataDir, SVC_STATE_DIR: dirs.stateDir } });
      try {
        for (const p of ['/api/settings/cloud', '/api/settings/ai', '/api/cloud/status']) {
          const r = await t.request('GET', p);
          assert.is(r.status, 200, r.text);
          assert.not.ok(/hunter2|s3cret/.test(r.text), `${p} answers no password`);
        }
      } finally {
        await t.close();
      }
    } finally {
      dirs.cleanup();
    }
  }
});

test('the repair step changes nothing on a new database, and a user name already set is kept', () => {
  const db = new Sqlite(':memory:');
  migrate(db, MIGRATIONS.filter((m) => m.version < 21), now);
  const before = snapshot(db);
  db.prepare("INSERT INTO settings VALUES ('cloud', 'username', '\"carol\"', 'x'), ('cloud', 'url', '\"https://dave:pw@dav.example.org/\"', 'x')").run();
  migrate(db, MIGRATIONS, now);
  assert.equal(db.prepare("SELECT key, value_json FROM settings ORDER BY key").all(), [{ key: 'url', value_json: '"https://dav.example.org/"' }, { key: 'username', value_json: '"carol"' }]);
  const fresh = new Sqlite(':memory:');
  // Through the repair steps (21, 22) only: later steps may add tables of their own.
  migrate(fresh, MIGRATIONS.filter((m) => m.version <= 22), now);
  assert.equal(snapshot(fresh), before);
  db.close();
  fresh.close();
});

test('an SMTP host stored with a password or scheme keeps only its host at upgrade; one with no readable host is removed', () => {
  const cases: [string, string | undefined][] = [
    ['"mail.example.org"', '"mail.example.org"'],
    ['"alice:hunter2@mail.example.org"', '"mail.example.org"'],
    ['"smtps://alice:hunter2@mail.example.org:465/"', '"mail.example.org"'],
    ['"smtp://[2001:db8::1]:25"', '"[2001:db8::1]"'],
    ['"alice:hunter2@"', undefined],
    ['42', undefined],
  ];
  for (const [stored, kept] of cases) {
    const db = new Sqlite(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 22), now);
    db.prepare("INSERT INTO settings VALUES ('email', 'smtp_host', ?, 'x'), ('email', 'smtp_port', '465', 'x')").run(stored);
    migrate(db, MIGRATIONS, now);
    assert.is(db.prepare("SELECT value_json FROM settings WHERE key = 'smtp_host'").pluck().get(), kept, stored);
    assert.is(db.prepare("SELECT value_json FROM settings WHERE key = 'smtp_port'").pluck().get(), '465', 'other settings kept');
    db.close();
  }
});

test('the password of an SMTP host repaired at upgrade is gone from the database file, not only from the row (a backup copies every page)', () => {
  const dirs = tempDirs();
  try {
    for (const [stored, what] of [['"alice:Pw4SmtpXyzzy@mail.example.org"', 'kept host'], ['"alice:Pw4SmtpXyzzy@"', 'removed row']] as const) {
      const file = path.join(dirs.root, `smtp-${what.replace(' ', '-')}.db`);
      const db = new Sqlite(file);
      migrate(db, MIGRATIONS.filter((m) => m.version < 22), now);
      db.prepare("INSERT INTO settings VALUES ('email', 'smtp_host', ?, 'x')").run(stored);
      migrate(db, MIGRATIONS, now);
      db.close();
      assert.not.ok(fs.readFileSync(file).includes('Pw4SmtpXyzzy'), `${what}: the password's bytes are overwritten`);
    }
  } finally {
    dirs.cleanup();
  }
});

test('ai_settings stored before svc gave it three keys keep only those at upgrade (routines, configurations, runs), and a key typed there is gone from the database file', async () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const old = buildOldDatabase(file, MIGRATIONS.map((m) => m.version).filter((v) => v < 31));
    const typed = { api_key: 'sk-Xyzzy0AiSettings', model: 'gpt-small', instructions: '  field studies only  ', temperature: 0.2 };
    const at = '2026-11-20T09:00:00.000Z';
    old.prepare('INSERT INTO routines (id, name, schedule_cron, parameters_json, ai_enabled, ai_settings_json, created_at_utc, updated_at_utc) VALUES (1, ?, ?, ?, 1, ?, ?, ?)')
      .run('typed a key', '0 6 * * *', JSON.stringify({ query: 'ecology', repositories: ['crossref'], ai_settings: { token: 'tok-Xyzzy1', max_output_tokens: 500 } }), JSON.stringify(typed), at, at);
    old.prepare('INSERT INTO routines (id, name, schedule_cron, parameters_json, ai_settings_json, created_at_utc, updated_at_utc) VALUES (2, ?, ?, ?, ?, ?, ?)')
      .run('clean', '0 6 * * *', JSON.stringify({ query: 'soil', repositories: ['crossref'], ai_settings: null }), JSON.stringify({ model: 'm' }), at, at);
    old.prepare("INSERT INTO saved_configurations (id, name, config_type, parameters_json, created_at_utc, updated_at_utc) VALUES (1, 'cfg', 'sweep', ?, ?, ?)")
      .run(JSON.stringify({ query: 'q', ai_settings: { password: 'pw-Xyzzy2' } }), at, at);
    old.prepare("INSERT INTO executions (id, type, status, query, repositories_json, parameters_json, started_at_utc) VALUES (1, 'dive', 'completed', 'q', '[\"crossref\"]', ?, ?)")
      .run(JSON.stringify({ type: 'dive', query: 'q', aiEnabled: true, aiSettings: { secret: 'sec-Xyzzy3', model: 'gpt-small' } }), at);
    old.close();
    const { db } = openDatabase(file, now);
    const one = (sql: string) => JSON.parse(db.prepare(sql).pluck().get() as string);
    assert.equal(one('SELECT ai_settings_json FROM routines WHERE id = 1'), { model: 'gpt-small', instructions: 'field studies only' });
    assert.equal(one('SELECT parameters_json FROM routines WHERE id = 1').ai_settings, { max_output_tokens: 500 });
    assert.equal(one('SELECT parameters_json FROM routines WHERE id = 1').query, 'ecology', 'the rest of the parameters kept');
    assert.equal(one('SELECT ai_settings_json FROM routines WHERE id = 2'), { model: 'm' }, 'a value with only known keys is left as it was');
    assert.equal(one('SELECT parameters_json FROM saved_configurations WHERE id = 1'), { query: 'q', ai_settings: {} });
    assert.equal(one('SELECT parameters_json FROM executions WHERE id = 1').aiSettings, { model: 'gpt-small' });
    // While the upgraded database is still open (a server keeps it so for days): the old pages are
    // already out of the main file and the WAL, not only once it closes.
    assertNoPasswordBytes(file, /Xyzzy\d/, 'ai_settings, the database open');
    db.close();
    assertNoPasswordBytes(file, /Xyzzy\d/, 'ai_settings');
  } finally {
    dirs.cleanup();
  }
});

test('ai_settings saved in assistant conversations before migration 31 (tool calls\' arguments, tools\' answers) keep only the three keys at upgrade, and a key typed there is gone from the database file', async () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const old = buildOldDatabase(file, MIGRATIONS.map((m) => m.version).filter((v) => v < 31));
    const at = '2026-11-20T09:00:00.000Z';
    old.prepare("INSERT INTO assistant_sessions (id, title, created_at_utc, updated_at_utc) VALUES (1, 'tools', ?, ?)").run(at, at);
    // A round as the runner saved it: the model's calls (a refused write among them), then the tools' answers.
    const calls = [
      { id: 'c1', name: 'create_routine', input: { name: 'reefs', ai_settings: { api_key: 'sk-Xyzzy4Call', model: 'gpt-small' } } },
      { id: 'c2', name: 'get_routine', input: { routine_id: 1 } },
    ];
    const results = [
      { callId: 'c1', name: 'create_routine', output: { error: 'invalid_argument', message: 'The assistant has no tool "create_routine".', detail: {} }, isError: true },
      { callId: 'c2', name: 'get_routine', output: { routine: { id: 1, name: 'reefs', ai_settings: { token: 'tok-Xyzzy5Answer', max_output_tokens: 500 }, parameters: { query: 'reef', ai_settings: { password: 'pw-Xyzzy6' } } } }, isError: false },
      { callId: 'c3', name: 'get_execution', output: { id: 7, parameters: { aiSettings: { secret: 'sec-Xyzzy7', instructions: 'be brief' } }, note: 'ai_settings: {"api_key": "stays a string"}' }, isError: false },
    ];
    const clean = [{ callId: 'c4', name: 'list_routines', output: { routines: [{ id: 2, ai_settings: { model: 'm' } }] }, isError: false }];
    const insert = old.prepare("INSERT INTO assistant_messages (id, session_id, role, content, created_at_utc, tool_calls_json, tool_results_json) VALUES (?, 1, ?, '', ?, ?, ?)");
    insert.run(1, 'assistant', at, JSON.stringify(calls), null);
    insert.run(2, 'tool', at, null, JSON.stringify(results));
    insert.run(3, 'tool', at, null, JSON.stringify(clean));
    old.close();
    const { db } = openDatabase(file, now);
    const one = (sql: string) => JSON.parse(db.prepare(sql).pluck().get() as string);
    const keptCalls = one('SELECT tool_calls_json FROM assistant_messages WHERE id = 1');
    assert.equal(keptCalls[0].input, { name: 'reefs', ai_settings: { model: 'gpt-small' } });
    assert.equal(keptCalls[1], calls[1], 'a call with no ai_settings is left as it was');
    const keptResults = one('SELECT tool_results_json FROM assistant_messages WHERE id = 2');
    assert.equal(keptResults[0], results[0]);
    assert.equal(keptResults[1].output.routine, { id: 1, name: 'reefs', ai_settings: { max_output_tokens: 500 }, parameters: { query: 'reef', ai_settings: {} } });
    assert.equal(keptResults[2].output, { id: 7, parameters: { aiSettings: { instructions: 'be brief' } }, note: 'ai_settings: {"api_key": "stays a string"}' }, 'text quoting the field is not an object: kept');
    assert.is(db.prepare('SELECT tool_results_json FROM assistant_messages WHERE id = 3').pluck().get(), JSON.stringify(clean), 'only known keys: the row is untouched');
    assertNoPasswordBytes(file, /Xyzzy\d/, 'assistant tool rounds, the database open');
    db.close();
    assertNoPasswordBytes(file, /Xyzzy\d/, 'assistant tool rounds');
  } finally {
    dirs.cleanup();
  }
});

/**
 * An installation of `versions` holding these settings values (as an older svc stored them), upgraded:
 * the database, its file, and a reader of each stored value_json.
 */
function upgradedWithSettings(dataDir: string, root: string, versions: number[], values: [string, string, string][]) {
  const file = path.join(dataDir, 'svc.db');
  const old = buildOldDatabase(file, versions);
  fillOldDatabase(old, versions, root);
  const put = old.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES (?, ?, ?, '2026-11-20T09:00:00.000Z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json");
  for (const [group, key, value] of values) put.run(group, key, JSON.stringify(value));
  old.close();
  const { db } = openDatabase(file, now);
  const stored = (group: string, key: string) => db.prepare('SELECT value_json FROM settings WHERE group_name = ? AND key = ?').pluck().get(group, key) as string | undefined;
  return { db, file, stored };
}

/** No bytes matching `password` left in the database file or its WAL (a backup copies every page). */
function assertNoPasswordBytes(file: string, password: RegExp, what: string): void {
  for (const f of [file, `${file}-wal`]) {
    if (fs.existsSync(f)) assert.not.ok(password.test(fs.readFileSync(f, 'latin1')), `${what}: no password bytes in ${path.basename(f)}`);
  }
}

test('a URL setting stored as "me:pw@host" (no scheme, which passed the userinfo check) is removed at upgrade, and its password is gone from the database file', async () => {
  const schema19 = INSTALLATIONS.find((i) => i.name.startsWith('schema 19'))!;
  // After migration 21 (which already moved a user name and password out of a URL that it could read) and 22.
  const schema22 = { name: 'schema 22 (1-13, 15-22)', versions: [...schema19.versions, 20, 21, 22] };
  for (const inst of [schema19, schema22]) {
    const dirs = tempDirs();
    try {
      const { db, file, stored } = upgradedWithSettings(dirs.dataDir, dirs.root, inst.versions, [
        ['cloud', 'url', 'me:Pw9CloudXyzzy@dav.example.org/remote.php/dav'],
        ['cloud', 'provider', 'webdav'],
        ['ai', 'base_url', 'bob:Pw8AiXyzzy@127.0.0.1:11434/v1'],
        ['embeddings', 'base_url', 'https://eve:Pw7EmbXyzzy@emb.example.org/v1'],
      ]);
      assert.not.ok(/Xyzzy/.test(JSON.stringify(db.prepare('SELECT * FROM settings').all())), `${inst.name}: no password left in a row`);
      assert.is(stored('embeddings', 'base_url'), '"https://emb.example.org/v1"', 'an http(s) URL keeps all but its userinfo');
      if (inst === schema22) {
        assert.is(stored('cloud', 'url'), undefined, 'the value with the password is removed (it read as unset)');
        assert.is(stored('ai', 'base_url'), undefined);
      }
      assert.is(stored('email', 'smtp_host'), '"smtp.example.org"', 'other settings kept');
      db.close();
      assertNoPasswordBytes(file, /Pw[789]\w+Xyzzy/, inst.name);
      const t = await startTestServer({ env: { SVC_DATA_DIR: dirs.dataDir, SVC_STATE_DIR: dirs.stateDir } });
      try {
        assert.is((await t.request('GET', '/api/settings/cloud')).json().settings.url, '');
        // Schema 19: migration 21 took the user name and password out, leaving a value without a scheme; an
        // endpoint reads as stored (its use is refused, endpoint_invalid) rather than as the provider's own.
        assert.is((await t.request('GET', '/api/settings/ai')).json().settings.base_url, inst === schema22 ? '' : '127.0.0.1:11434/v1');
        assert.is((await t.request('GET', '/api/cloud/status')).json().linked, false);
      } finally {
        await t.close();
      }
    } finally {
      dirs.cleanup();
    }
  }
});

test('a URL setting stored as "me:pw@host" whose password holds a slash, ? or # is removed at upgrade too, its bytes gone from the database file', () => {
  const schema19 = INSTALLATIONS.find((i) => i.name.startsWith('schema 19'))!;
  const schema22 = { name: 'schema 22 (1-13, 15-22)', versions: [...schema19.versions, 20, 21, 22] };
  const dirs = tempDirs();
  try {
    // Each passed the check of schema 22: URL parsing reads "me:" as a scheme with no user name.
    const { db, file, stored } = upgradedWithSettings(dirs.dataDir, dirs.root, schema22.versions, [
      ['cloud', 'url', 'me:Pw9/CloudXyzzy@dav.example.org/remote.php/dav'],
      ['ai', 'base_url', 'bob:Pw8?AiXyzzy@127.0.0.1:11434/v1'],
      ['embeddings', 'base_url', 'eve:Pw7#EmbXyzzy@emb.example.org/v1'],
    ]);
    assert.equal([stored('cloud', 'url'), stored('ai', 'base_url'), stored('embeddings', 'base_url')], [undefined, undefined, undefined], 'every value with a password is removed (each read as unset)');
    assert.is(stored('email', 'smtp_host'), '"smtp.example.org"', 'other settings kept');
    db.close();
    assertNoPasswordBytes(file, /Pw[789]\W\w+Xyzzy/, 'schema 22');
  } finally {
    dirs.cleanup();
  }
});

test('a migration that fails part-way leaves the old database as it was, and usable', () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const inst = INSTALLATIONS.find((i) => i.name.startsWith('schema 12'))!;
    const old = buildOldDatabase(file, inst.versions);
    fillOldDatabase(old, inst.versions, dirs.root);
    const before = snapshot(old);
    const marker = old.pragma('user_version', { simple: true });
    // Today's steps, with one that breaks after doing part of its work.
    const broken = MIGRATIONS.map((m) => (m.version === 13 ? { ...m, up: (d: Database) => { m.up(d); throw new Error('disk full'); } } : m));
    assert.throws(() => migrate(old, broken, now), /disk full/);
    assert.is(old.pragma('user_version', { simple: true }), marker);
    assert.equal(snapshot(old), before, 'nothing of the failed step stays');
    assert.is(old.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'explorer_facet_counts'").pluck().get(), 0);
    old.close();
    // And the real upgrade then runs from there.
    const { db, schemaVersion } = openDatabase(file, now);
    assert.is(schemaVersion, NEWEST);
    const upgraded = snapshot(db, before);
    for (const table of CLEARED_AS_DERIVED) upgraded[table] = { ...upgraded[table]!, rows: before[table]!.rows };
    assert.equal(upgraded, before);
    for (const table of CLEARED_AS_DERIVED) assert.equal(snapshot(db, before)[table]!.rows, [], `${table} cleared, to be derived again`);
    db.close();
  } finally {
    dirs.cleanup();
  }
});

test('a database from a newer svc is refused and left untouched', () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const inst = INSTALLATIONS[INSTALLATIONS.length - 1]!;
    const old = buildOldDatabase(file, inst.versions);
    fillOldDatabase(old, inst.versions, dirs.root);
    old.pragma(`user_version = ${NEWEST + 1}`);
    const before = snapshot(old);
    const schema = schemaOf(old);
    old.close();
    assert.throws(() => openDatabase(file, now), (e: unknown) => e instanceof SvcError && e.reason === 'schema_too_new');
    const again = new Sqlite(file, { readonly: true });
    assert.is(again.pragma('user_version', { simple: true }), NEWEST + 1);
    assert.equal(snapshot(again), before);
    assert.equal(schemaOf(again), schema);
    again.close();
    assert.ok(fs.existsSync(file));
  } finally {
    dirs.cleanup();
  }
});

test('a migration imports nothing that may change later: only the Migration type and Node built-ins', () => {
  const dir = path.join(ROOT, 'src', 'db', 'migrations');
  const steps = fs.readdirSync(dir).filter((f) => /^\d{3}-.*\.ts$/.test(f));
  assert.ok(steps.length >= 30, 'the migration steps are found');
  for (const file of steps) {
    const from = [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
    for (const spec of from) assert.ok(spec === '../migration.js' || spec.startsWith('node:'), `${file} imports ${spec}: copy what it needs as it is today`);
  }
});

test.run();
