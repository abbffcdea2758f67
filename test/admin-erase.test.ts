import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { unclassifiedTables } from '../src/admin/repo.js';
import { TABLE_CATEGORIES } from '../src/admin/tables.js';
import { ERASE_SCOPES, eraseScope } from '../src/admin/erase.js';
import { ERASE_WORDS } from '../commands/admin/erase-scopes.js';
import { ENTER, onPty } from './_pty.js';
import { claimWhileLocked, getTurnClaim } from './_assistant.js';
import { seededInstallation } from './_admin.js';
import { ROOT, runCli, startTestServer, tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';

test('every table of the database is classified (a new table must be given a category in src/admin/tables.ts)', async () => {
  const t = await startTestServer();
  try {
    assert.equal(unclassifiedTables(t.ctx.db), [], 'classify these tables in src/admin/tables.ts');
    const present = new Set((t.ctx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]));
    for (const name of Object.keys(TABLE_CATEGORIES)) assert.ok(present.has(name), `${name} is classified but does not exist`);
  } finally {
    await t.close();
  }
});

// What each scope must leave: table → kept (true) or emptied (false); keys by kind.
const T = { documents: 0, executions: 0, routines: 0, saved_configurations: 0, settings: 0, app_state: 0, library_files: 0 };
type Expect = { keep: Partial<Record<keyof typeof T, boolean>>; keys: { ai: boolean; repository: boolean; email: boolean }; reports: boolean };
const all = (keep: boolean) => Object.fromEntries(Object.keys(T).map((k) => [k, keep])) as Record<keyof typeof T, boolean>;
const EXPECT: Record<string, Expect> = {
  'erase-ai-keys': { keep: all(true), keys: { ai: false, repository: true, email: true }, reports: true },
  'erase-repo-keys': { keep: all(true), keys: { ai: true, repository: false, email: true }, reports: true },
  'erase-configs': { keep: { ...all(true), routines: false, saved_configurations: false }, keys: { ai: true, repository: true, email: true }, reports: true },
  'erase-executions': { keep: { ...all(true), executions: false }, keys: { ai: true, repository: true, email: true }, reports: false },
  'erase-execution-data': { keep: { ...all(true), executions: false, routines: false, saved_configurations: false }, keys: { ai: true, repository: true, email: true }, reports: false },
  'erase-corpus': { keep: { ...all(true), documents: false }, keys: { ai: true, repository: true, email: true }, reports: true },
  'erase-app-data': { keep: { ...all(true), documents: false, executions: false, routines: false, saved_configurations: false }, keys: { ai: false, repository: false, email: false }, reports: false },
  'reset-settings': { keep: { ...all(true), settings: false }, keys: { ai: false, repository: false, email: false }, reports: true },
  'factory-reset': { keep: all(false), keys: { ai: false, repository: false, email: false }, reports: false },
};

test('the expectations cover every scope', () => {
  assert.equal(Object.keys(EXPECT).sort(), [...ERASE_SCOPES].sort());
});

for (const scope of ERASE_SCOPES) {
  test(`${scope}: refused without its confirm word, then erases exactly its scope`, async () => {
    const inst = await seededInstallation();
    const { t } = inst;
    try {
      const count = (table: string) => t.ctx.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
      const before = Object.fromEntries(Object.keys(T).map((k) => [k, count(k)]));
      for (const k of Object.keys(T)) assert.ok(before[k]! > 0, `seeded ${k}`);
      const vaultBytes = fs.readdirSync(path.join(inst.vaultRoot, 'files')).length;
      const report = path.join(t.dirs.dataDir, 'reports', `execution-${inst.executionId}.txt`);
      assert.ok(fs.existsSync(report));

      for (const body of [undefined, {}, { confirm: '' }, { confirm: 'yes' }, { confirm: scope.toUpperCase() }]) {
        const r = await t.request('POST', `/api/admin/${scope}`, body === undefined ? {} : { body });
        assert.is(r.status, 400, `${JSON.stringify(body)} → ${r.text}`);
        assert.is(r.json().detail.reason, 'confirmation_required');
        assert.is(r.json().detail.expected_confirm, scope);
      }
      assert.equal(Object.fromEntries(Object.keys(T).map((k) => [k, count(k)])), before, 'a refusal changes nothing');

      const r = await t.request('POST', `/api/admin/${scope}`, { body: { confirm: scope } });
      assert.is(r.status, 200, r.text);
      assert.is(r.json().scope, scope);
      const want = EXPECT[scope]!;
      for (const [table, keep] of Object.entries(want.keep)) {
        assert.is(count(table) > 0, keep, `${scope}: ${table} should be ${keep ? 'kept' : 'erased'}`);
        if (keep) assert.is(count(table), before[table], `${scope}: ${table} untouched`);
      }
      assert.is(t.ctx.credentials.status('openai_api_key') === 'present', want.keys.ai, 'ai key');
      assert.is(t.ctx.credentials.status('core_api_key') === 'present', want.keys.repository, 'repository key');
      assert.is(t.ctx.credentials.status('smtp_password') === 'present', want.keys.email, 'mail password');
      assert.is(fs.existsSync(report), want.reports, 'report file');
      assert.is(fs.readdirSync(path.join(inst.vaultRoot, 'files')).length, vaultBytes, 'vault bytes are never deleted');
      assert.is(count('schema_migrations') > 0, true);
      assert.is((t.ctx.db.pragma('foreign_key_check') as unknown[]).length, 0);
    } finally {
      await inst.close();
    }
  });
}

test('erasing runs or papers is refused while a run is in progress', async () => {
  const inst = await seededInstallation();
  try {
    inst.t.ctx.db.prepare("UPDATE executions SET status = 'running' WHERE id = ?").run(inst.executionId);
    for (const scope of ['erase-executions', 'erase-corpus', 'factory-reset']) {
      const r = await inst.t.request('POST', `/api/admin/${scope}`, { body: { confirm: scope } });
      assert.is(r.status, 409, scope);
      assert.is(r.json().detail.reason, 'executions_running');
    }
    assert.is((await inst.t.request('POST', '/api/admin/erase-ai-keys', { body: { confirm: 'erase-ai-keys' } })).status, 200);
    // The refusal names the runs and how to cancel them (the owner, this process, reported just now).
    inst.t.ctx.db.prepare('UPDATE executions SET owner_pid = ?, last_seen_at_utc = ? WHERE id = ?').run(process.pid, new Date().toISOString(), inst.executionId);
    // As a process: the run's owner is this test's process, which an in-process command would be too.
    const refused = await runCli(['erase', 'erase-executions', '--yes'], { env: inst.t.dirs.env });
    assert.is(refused.code, 4);
    assert.match(refused.stderr, new RegExp(`Runs are in progress \\(${inst.executionId}\\); cancel them \\(\`svc executions cancel ID\`\\)`));
    // A run left 'running' by a process that was killed outright blocks nothing.
    inst.t.ctx.db.prepare('UPDATE executions SET owner_pid = 2147483000, owner_runtime_id = ? WHERE id = ?').run('00000000-0000-4000-8000-000000000000', inst.executionId);
    const erased = await runCliInProcess(['--json', 'erase', 'erase-corpus', '--yes'], { env: inst.t.dirs.env });
    assert.is(erased.code, 0, erased.stderr);
    assert.ok(JSON.parse(erased.stdout).erased.rows.documents > 0);
  } finally {
    inst.t.ctx.db.prepare("UPDATE executions SET status = 'completed' WHERE id = ?").run(inst.executionId);
    await inst.close();
  }
});

test('erasing conversations is refused while a turn runs in any process, as deleting one is; the check and the erase are one transaction', async () => {
  const inst = await seededInstallation();
  const { spawn } = await import('node:child_process');
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  await new Promise((r) => other.once('spawn', r));
  const choices = { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-4o-mini', effort: null };
  const conversation = async () => (await inst.t.request('POST', '/api/assistant/sessions', { body: { choices, title: 'running' } })).json().session.id as number;
  const sessions = () => inst.t.ctx.db.prepare('SELECT COUNT(*) FROM assistant_sessions').pluck().get() as number;
  try {
    const id = await conversation();
    // `svc chat N` in another process runs the conversation's turn.
    inst.t.ctx.db
      .prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?)`)
      .run(`assistant_turn:${id}`, other.pid, Date.now(), new Date().toISOString());
    for (const scope of ['erase-app-data', 'factory-reset']) {
      const r = await inst.t.request('POST', `/api/admin/${scope}`, { body: { confirm: scope } });
      assert.is(r.status, 409, `${scope}: ${r.text}`);
      assert.equal([r.json().detail.reason, r.json().detail.session_ids], ['turn_active', [id]]);
    }
    const refused = await runCliInProcess(['erase', 'erase-app-data', '--yes'], { env: inst.t.dirs.env });
    assert.is(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, new RegExp(`Conversation ${id} has a running turn; cancel it \\(\`svc assistant cancel ID\`\\) or wait`));
    assert.is(sessions(), 1, 'the conversation stays');
    assert.ok((inst.t.ctx.db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n > 0, 'nothing erased');
    assert.ok(getTurnClaim(inst.t.ctx.db, id), 'its claim stays');
    assert.is((await inst.t.request('POST', '/api/admin/erase-executions', { body: { confirm: 'erase-executions' } })).status, 200, 'a scope without conversations is not held up');
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    assert.is((await inst.t.request('POST', '/api/admin/erase-app-data', { body: { confirm: 'erase-app-data' } })).status, 200, 'the claim of a dead process holds nothing up');
    assert.is(sessions(), 0);

    // A turn claimed by another process while the erase waits for the write lock is seen, not erased under it.
    const raced = await conversation();
    const locker = claimWhileLocked(inst.t.ctx.db.name, raced, 300);
    try {
      await locker.locked;
      let error: any;
      try {
        eraseScope(inst.t.ctx, 'erase-app-data', 'erase-app-data');
      } catch (err) {
        error = err;
      }
      await locker.committed;
      assert.is(error?.reason, 'turn_active', `refused, not ${error ?? 'erased'}`);
      assert.is(sessions(), 1, 'the conversation stays');
      assert.equal(getTurnClaim(inst.t.ctx.db, raced), { pid: process.pid, runtime_id: 'another-process', cancel_requested: 0 }, 'its claim stays');
    } finally {
      await locker.done();
    }
  } finally {
    other.kill('SIGKILL');
    await inst.close();
  }
});

test('erasing papers is refused while a link scan, backfill or index rebuild runs in any process (it would write them back)', async () => {
  const inst = await seededInstallation();
  const { spawn } = await import('node:child_process');
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  try {
    for (const job of ['links.scan', 'embeddings.backfill', 'embeddings.index']) {
      inst.t.ctx.db
        .prepare(`INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?)`)
        .run(job, other.pid, Date.now(), new Date().toISOString());
      for (const scope of ['erase-corpus', 'factory-reset']) {
        const r = await inst.t.request('POST', `/api/admin/${scope}`, { body: { confirm: scope } });
        assert.is(r.status, 409, `${job} ${scope}: ${r.text}`);
        assert.equal([r.json().detail.reason, r.json().detail.job, r.json().detail.running_in.pid], ['corpus_job_running', job, other.pid]);
      }
      inst.t.ctx.db.prepare('DELETE FROM job_claims').run();
    }
    assert.ok((inst.t.ctx.db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n > 0, 'nothing erased');
    assert.is((await inst.t.request('POST', '/api/admin/erase-configs', { body: { confirm: 'erase-configs' } })).status, 200, 'a scope without papers is not held up');
    inst.t.ctx.db
      .prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES ('embeddings.backfill', ?, 'cli-runtime', 'cli', ?, ?)`)
      .run(other.pid, Date.now(), new Date().toISOString());
    const refused = await runCliInProcess(['erase', 'erase-corpus', '--yes'], { env: inst.t.dirs.env });
    assert.is(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, new RegExp(`An embedding backfill is running in a command-line svc \\(pid ${other.pid}\\).*svc embed cancel`));
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    assert.is((await inst.t.request('POST', '/api/admin/erase-corpus', { body: { confirm: 'erase-corpus' } })).status, 200, 'the claim of a dead process holds nothing up');
  } finally {
    other.kill('SIGKILL');
    await inst.close();
  }
});

test('erasing papers leaves the claim of a conversation\'s running turn (same table as the corpus jobs); erasing conversations takes it once its process is gone', async () => {
  const inst = await seededInstallation();
  try {
    const db = inst.t.ctx.db;
    const put = db.prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?)`);
    put.run('assistant_turn:7', process.pid, Date.now(), new Date().toISOString());
    put.run('links.scan', 999_999_999, Date.now(), new Date().toISOString()); // stale: erased with the papers
    const jobs = () => db.prepare('SELECT job FROM job_claims ORDER BY job').pluck().all();
    const corpus = await inst.t.request('POST', '/api/admin/erase-corpus', { body: { confirm: 'erase-corpus' } });
    assert.is(corpus.status, 200, corpus.text);
    assert.is(corpus.json().erased.rows.job_claims, 1);
    assert.equal(jobs(), ['assistant_turn:7'], 'the turn stays one at a time');
    const configs = await inst.t.request('POST', '/api/admin/erase-configs', { body: { confirm: 'erase-configs' } });
    assert.is(configs.json().erased.rows.job_claims, undefined, 'a scope of neither category does not touch it');
    const running = await inst.t.request('POST', '/api/admin/erase-app-data', { body: { confirm: 'erase-app-data' } });
    assert.is(running.status, 409, 'not while the turn runs');
    // Its process went away: the claim left behind goes with the conversations.
    db.prepare("UPDATE job_claims SET pid = 999999999 WHERE job = 'assistant_turn:7'").run();
    const app = await inst.t.request('POST', '/api/admin/erase-app-data', { body: { confirm: 'erase-app-data' } });
    assert.is(app.status, 200, app.text);
    assert.equal(jobs(), [], 'gone with the conversations');
  } finally {
    await inst.close();
  }
});

test('svc erase names the nine scopes with one word each, the same in svc --help, svc erase --help, svc-admin(1) and the command', async () => {
  const words = Object.keys(ERASE_WORDS);
  assert.equal(Object.values(ERASE_WORDS).sort(), [...ERASE_SCOPES].sort(), 'one word for each scope of the spec');
  assert.equal(words, ['ai-keys', 'source-keys', 'configs', 'executions', 'execution-data', 'corpus', 'settings', 'app-data', 'everything']);
  const summary = (await runCliInProcess(['--help'])).stdout.replace(/\s+/g, ' ');
  assert.ok(summary.includes(`erase one scope of data: ${words.join(', ')}`), summary);
  const help = (await runCliInProcess(['erase', '--help'])).stdout;
  const man = fs.readFileSync(path.join(ROOT, 'man', 'svc-admin.1'), 'utf8');
  for (const [word, scope] of Object.entries(ERASE_WORDS)) {
    const entry = new RegExp(`\n  ${word} +erases ([^\n]+(\n {18}[^\n]+)*)`).exec(help);
    assert.ok(entry, `${word} in svc erase --help`);
    assert.match(entry![1]!.replace(/\s+/g, ' '), /; keeps /, `${word}: what it erases and what it keeps`);
    const page = new RegExp(`\\.TP\\n\\.BR ${word.replace(/-/g, '\\\\-')} " \\(${scope.replace(/-/g, '\\\\-')}\\)"\\n(Erases|Resets)[^]*?(?=\\n\\.TP|\\n\\.SS)`).exec(man);
    assert.ok(page, `${word} (${scope}) in svc-admin(1)`);
    assert.match(page![0], /Keeps/, `${word}: what it keeps, in svc-admin(1)`);
  }
  assert.not.match(help, /erase-corpus|factory-reset/, 'the help speaks one vocabulary');
});

test('svc erase WORD erases that scope; the spec names still work; anything else is refused naming the nine words', async () => {
  const dirs = tempDirs();
  try {
    const corpus = await runCliInProcess(['--json', 'erase', 'corpus', '--yes'], { env: dirs.env });
    assert.is(corpus.code, 0, corpus.stderr);
    assert.is(JSON.parse(corpus.stdout).scope, 'erase-corpus');
    const text = await runCliInProcess(['erase', 'source-keys', '--yes'], { env: dirs.env });
    assert.is(text.code, 0, text.stderr);
    assert.match(text.stdout, /^source-keys: erased 0 rows, 0 stored keys, 0 report files\.\nKept: /);
    const old = await runCliInProcess(['--json', 'erase', 'reset-settings', '--yes'], { env: dirs.env });
    assert.equal([old.code, JSON.parse(old.stdout).scope], [0, 'reset-settings']);
    const wrong = await runCliInProcess(['erase', 'papers', '--yes'], { env: dirs.env });
    assert.is(wrong.code, 2);
    assert.is(wrong.stderr.trim(), 'svc: The scope must be one of ai-keys, source-keys, configs, executions, execution-data, corpus, settings, app-data, everything (svc erase --help says what each erases and keeps), not "papers".');
    const off = await runCliInProcess(['erase', 'everything'], { env: dirs.env });
    assert.equal([off.code, off.stderr.trim()], [2, 'svc: svc erase everything is irreversible; add --yes to confirm when not on a terminal.']);
  } finally {
    dirs.cleanup();
  }
});

test('on a terminal, svc erase asks for the word: a wrong one is said and asked for once more; the word erases; Enter alone erases nothing', async () => {
  const dirs = tempDirs();
  try {
    const creds = (await runCliInProcess(['credentials', 'set', 'openai_api_key'], { env: dirs.env, stdin: 'sk-1\n' }));
    assert.is(creds.code, 0, creds.stderr);
    const typed = await onPty(['erase', 'ai-keys'], dirs.env, [
      { after: 'Type ai-keys to go ahead', keys: `erase-ai-keys${ENTER}` },
      { after: '"erase-ai-keys" is not ai-keys', keys: `ai-keys${ENTER}` },
    ]);
    assert.is(typed.code, 0, typed.screen);
    assert.match(typed.screen, /ai-keys: erased 0 rows, 1 stored keys/);
    assert.is((await runCliInProcess(['--json', 'credentials', 'list'], { env: dirs.env })).stdout.includes('"present"'), false, 'the key is gone');
    const declined = await onPty(['erase', 'everything'], dirs.env, [{ after: 'Type everything to go ahead', keys: ENTER }]);
    assert.is(declined.code, 1, declined.screen);
    assert.match(declined.screen, /svc: everything was not typed; nothing erased\./);
  } finally {
    dirs.cleanup();
  }
});

test.run();
