/**
 * One link scan and one embedding backfill at a time per data directory,
 * across processes: the server, the daemon and `svc` commands each run in
 * their own process on the same database. A second start anywhere is refused
 * naming the process that runs the job, status reads name it, a cancel from
 * another process reaches the job, and a claim left by a dead process (or one
 * from before the last boot) is taken over.
 */
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { backfillSettled } from '../src/similarity/backfill.js';
import { embedAfterRun } from '../src/similarity/after-run.js';
import { cancelLinkScan, linkScanSettled, runLinkScan } from '../src/similarity/link-scan.js';
import { runCli, startTestServer, tempDirs, waitFor } from './_setup.js';
import { labelledSet, seedDocuments, TOPICS } from './_similarity.js';

const quiet = () => createLogger({ level: 'warn', sink: () => {} });

async function gatedOllama() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let requests = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      requests++;
      if (requests === 1) await gate;
      const body = JSON.parse(raw);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ model: body.model, embeddings: (body.input as string[]).map((t) => [t.length % 7, 1, 2, 3]) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, release, requests: () => requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
}

async function kill(p: ChildProcess) {
  p.kill('SIGKILL');
  if (p.exitCode === null && p.signalCode === null) await new Promise((r) => p.once('exit', r));
}

test('a backfill in the server: `svc embed backfill` elsewhere is refused naming it, status names it, `svc embed cancel` reaches it', async () => {
  const t = await startTestServer();
  const ollama = await gatedOllama();
  try {
    seedDocuments(t.ctx.db, TOPICS);
    await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'ollama', base_url: ollama.url, batch_size: 2 } } });
    const started = await t.request('POST', '/api/embeddings/backfill');
    assert.is(started.status, 202);
    const runId = started.json().run.id;
    await waitFor(() => ollama.requests() === 1, 5000, 'the first batch in flight');

    const here = (await t.request('GET', '/api/embeddings/status')).json();
    assert.equal([here.run.running_here, here.running_in.pid, here.running_in.role, here.running_in.here, here.running_in.run_id], [true, process.pid, 'server', true, runId]);
    const cli = (args: string[]) => runCli([...args, '--json'], { env: t.dirs.env });
    const status = await cli(['embed', 'status']);
    assert.is(status.code, 0, status.stderr);
    const seen = JSON.parse(status.stdout);
    assert.equal([seen.run.state, seen.run.running_here, seen.running_in.pid, seen.running_in.role, seen.running_in.here], ['running', false, process.pid, 'server', false], 'another process says which process runs it');

    const second = await cli(['embed', 'backfill']);
    assert.is(second.code, 4, `a second backfill in another process is a conflict, not a second run: ${second.stdout}${second.stderr}`);
    const refused = JSON.parse(second.stdout);
    assert.is(refused.error, 'backfill_already_running');
    assert.match(refused.message, new RegExp(`server \\(pid ${process.pid}\\)`));
    assert.is(ollama.requests(), 1, 'the refused process embedded nothing');

    const cancel = await cli(['embed', 'cancel']);
    assert.is(cancel.code, 0, cancel.stderr);
    const asked = JSON.parse(cancel.stdout);
    assert.equal([asked.cancel_requested, asked.run_id, asked.running_in.role], [true, runId, 'server'], 'the cancel reaches the server\'s backfill');
    ollama.release();
    await backfillSettled(t.ctx);
    const after = (await t.request('GET', '/api/embeddings/status')).json();
    assert.equal([after.run.state, after.run.embedded, after.running_in], ['cancelled', 2, null], 'stopped after the batch in flight, claim released');
    assert.is(ollama.requests(), 1);
  } finally {
    ollama.release();
    await ollama.close();
    await t.close();
  }
});

test('a link scan claimed by another live process: 409 naming it, status names it, cancel flags it, `svc links scan` refused; taken over once it is gone', async () => {
  const t = await startTestServer();
  const other = sleeper();
  try {
    seedDocuments(t.ctx.db, TOPICS);
    const now = t.ctx.nowIso();
    const scanId = Number(t.ctx.db.prepare(`INSERT INTO link_scans (state, total, owner_runtime_id, owner_pid, started_at_utc) VALUES ('running', 7, 'cli-runtime', ?, ?)`).run(other.pid, now).lastInsertRowid);
    t.ctx.db
      .prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, run_id, claimed_at_ms, claimed_at_utc) VALUES ('links.scan', ?, 'cli-runtime', 'cli', ?, ?, ?)`)
      .run(other.pid, scanId, Date.now(), now);

    const refused = await t.request('POST', '/api/links/scan');
    assert.is(refused.status, 409);
    const d = refused.json().detail;
    assert.equal([d.reason, d.conflict, d.scan_id, d.running_in.pid, d.running_in.role, d.running_in.here], ['link_scan_already_running', 'link_scan_already_running', scanId, other.pid, 'cli', false]);
    assert.match(d.message, new RegExp(`pid ${other.pid}`));
    assert.is((t.ctx.db.prepare('SELECT COUNT(*) AS n FROM link_scans').get() as { n: number }).n, 1, 'no second scan started');

    const status = (await t.request('GET', '/api/links/status')).json();
    assert.equal([status.scan.id, status.scan.state, status.scan.running_here, status.running_in.pid], [scanId, 'running', false, other.pid]);

    const cancel = (await t.request('POST', '/api/links/scan/cancel')).json();
    assert.equal([cancel.cancel_requested, cancel.scan_id, cancel.running_in.pid], [true, scanId, other.pid]);
    assert.is((t.ctx.db.prepare(`SELECT cancel_requested FROM job_claims WHERE job = 'links.scan'`).get() as { cancel_requested: number }).cancel_requested, 1, 'the flag the other process reads');

    const cli = await runCli(['links', 'scan', '--json'], { env: t.dirs.env });
    assert.is(cli.code, 4, cli.stdout + cli.stderr);
    assert.is(JSON.parse(cli.stdout).error, 'link_scan_already_running');

    await kill(other);
    const taken = await t.request('POST', '/api/links/scan');
    assert.is(taken.status, 202, 'the claim of a dead process is taken over');
    await linkScanSettled(t.ctx);
    assert.is((t.ctx.db.prepare('SELECT state FROM link_scans WHERE id = ?').get(scanId) as { state: string }).state, 'interrupted');
    assert.is((await t.request('GET', '/api/links/status')).json().scan.state, 'completed');
  } finally {
    await kill(other);
    await t.close();
  }
});

test('the two cancel routes answer alike, each naming its run under its own field (run_id, scan_id): idle, and a job another process runs', async () => {
  const t = await startTestServer();
  const other = sleeper();
  try {
    const cancel = async (p: string) => (await t.request('POST', p)).json();
    assert.is(JSON.stringify(await cancel('/api/embeddings/backfill/cancel')), JSON.stringify({ cancel_requested: false, run_id: null, running_in: null, message: 'No backfill is running.' }));
    assert.is(JSON.stringify(await cancel('/api/links/scan/cancel')), JSON.stringify({ cancel_requested: false, scan_id: null, running_in: null, message: 'No link scan is running.' }));
    const at = Date.now();
    const since = new Date(at).toISOString();
    const put = t.ctx.db.prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, detail, run_id, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?, ?, ?)`);
    put.run('embeddings.backfill', other.pid, 'manual', 41, at, since);
    put.run('links.scan', other.pid, null, 42, at, since);
    const holder = (detail: string | null, run_id: number) => ({ pid: other.pid, runtime_id: 'cli-runtime', role: 'cli', detail, run_id, since_utc: since, cancel_requested: true, here: false });
    const where = `in a command-line svc (pid ${other.pid}) since ${since}`;
    assert.is(
      JSON.stringify(await cancel('/api/embeddings/backfill/cancel')),
      JSON.stringify({ cancel_requested: true, run_id: 41, running_in: holder('manual', 41), message: `The backfill ${where} stops after the batch in flight; vectors already written are kept.` }),
    );
    assert.is(
      JSON.stringify(await cancel('/api/links/scan/cancel')),
      JSON.stringify({ cancel_requested: true, scan_id: 42, running_in: holder(null, 42), message: `The scan ${where} stops after the document in flight; links already written are kept.` }),
    );
    t.ctx.db.prepare('DELETE FROM job_claims').run();
  } finally {
    await kill(other);
    await t.close();
  }
});

test('one index build at a time in any process; a rebuild and a backfill run beside each other (the index catches up from the change log)', async () => {
  const t = await startTestServer();
  const other = sleeper();
  try {
    seedDocuments(t.ctx.db, TOPICS);
    await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'local' } } });
    await t.request('POST', '/api/embeddings/backfill');
    await backfillSettled(t.ctx);
    const claim = (job: string) =>
      t.ctx.db
        .prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?)`)
        .run(job, other.pid, Date.now(), t.ctx.nowIso());

    claim('embeddings.backfill');
    const rebuild = await t.request('POST', '/api/embeddings/rebuild');
    assert.is(rebuild.status, 200, `a backfill elsewhere does not stop a rebuild: ${rebuild.text}`);
    t.ctx.db.prepare(`DELETE FROM job_claims`).run();

    claim('embeddings.index');
    const backfill = await t.request('POST', '/api/embeddings/backfill');
    assert.is(backfill.status, 202, `a build elsewhere does not stop a backfill: ${backfill.text}`);
    await backfillSettled(t.ctx);
    const second = await t.request('POST', '/api/embeddings/rebuild');
    assert.is(second.status, 503);
    assert.equal([second.json().detail.reason, second.json().detail.running_in.pid], ['index_rebuilding', other.pid]);
    assert.match(second.json().detail.message, new RegExp(`pid ${other.pid}`));

    await kill(other);
    const rebuilt = await t.request('POST', '/api/embeddings/rebuild');
    assert.is(rebuilt.status, 200, 'the claim of a dead process is taken over');
    assert.is((t.ctx.db.prepare(`SELECT COUNT(*) AS n FROM job_claims WHERE job = 'embeddings.index'`).get() as { n: number }).n, 0, 'released when the rebuild ends');
  } finally {
    await kill(other);
    await t.close();
  }
});

test('a claim written before the last boot is taken over even when its pid runs again', async () => {
  const t = await startTestServer();
  try {
    seedDocuments(t.ctx.db, TOPICS);
    // Our own pid certainly runs; the claim is dated at the epoch, long before this boot.
    t.ctx.db.prepare(`INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES ('links.scan', ?, 'old-runtime', 'daemon', 0, '1970-01-01T00:00:00Z')`).run(process.pid);
    assert.is((await t.request('GET', '/api/links/status')).json().running_in, null);
    const started = await t.request('POST', '/api/links/scan');
    assert.is(started.status, 202);
    await linkScanSettled(t.ctx);
  } finally {
    await t.close();
  }
});

test('a cancel from another process stops a running link scan after the document in flight', async () => {
  const dirs = tempDirs();
  const a = createContext({ env: dirs.env, log: quiet() });
  const b = createContext({ env: dirs.env, log: quiet() });
  try {
    seedDocuments(a.db, labelledSet().documents);
    let answer: ReturnType<typeof cancelLinkScan> | undefined;
    let judged = 0;
    const scan = await runLinkScan(a, {
      onJudged: () => {
        if (++judged !== 1) return;
        answer = cancelLinkScan(b);
        // The running scan reads the flag at most every 200 ms: let that pass.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      },
    });
    assert.equal([answer?.cancel_requested, answer?.running_in?.here, answer?.running_in?.runtime_id], [true, false, a.runtimeId]);
    assert.is(scan.state, 'cancelled', 'the other process\'s cancel reached the scan');
    assert.is((a.db.prepare('SELECT COUNT(*) AS n FROM job_claims').get() as { n: number }).n, 0, 'the claim is released');
  } finally {
    await a.close();
    await b.close();
    dirs.cleanup();
  }
});

test('the step after a run skips while a whole-corpus backfill runs in another process, and waits for another run\'s step', async () => {
  const dirs = tempDirs();
  const lines: string[] = [];
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'debug', sink: (l) => lines.push(l) }) });
  const other = sleeper();
  try {
    const ids = seedDocuments(ctx.db, TOPICS);
    const now = ctx.nowIso();
    const exec = Number(ctx.db.prepare(`INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc) VALUES ('dive', 'completed', 'q', '[]', '{}', ?)`).run(now).lastInsertRowid);
    const link = ctx.db.prepare(`INSERT INTO execution_documents (execution_id, document_id, source, rank) VALUES (?, ?, 'arxiv', ?)`);
    ids.forEach((id, i) => link.run(exec, id, i));
    const vectors = () => (ctx.db.prepare('SELECT COUNT(*) AS n FROM embedding_vectors').get() as { n: number }).n;
    const claim = (detail: string) =>
      ctx.db.prepare(`INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, detail, claimed_at_ms, claimed_at_utc) VALUES ('embeddings.backfill', ?, 'cli-runtime', 'cli', ?, ?, ?)`).run(other.pid, detail, Date.now(), now);

    claim('cli');
    await embedAfterRun(ctx, { id: exec, status: 'completed' });
    assert.is(vectors(), 0, 'the whole-corpus backfill in the other process reaches these papers; nothing embedded twice');

    claim('after_run:99');
    const step = embedAfterRun(ctx, { id: exec, status: 'completed' });
    // It looked twice and found the claim held both times: waiting, not giving up or embedding anyway.
    await waitFor(() => lines.filter((l) => l.includes(`embedding after run ${exec} waits: after_run:99 holds the backfill`)).length >= 2, 5000, 'two looks at the held backfill');
    assert.is(vectors(), 0, 'waits while another run\'s step holds the backfill');
    ctx.db.prepare(`DELETE FROM job_claims`).run();
    await step;
    assert.is(vectors(), ids.length, 'then embeds its papers');
  } finally {
    await kill(other);
    await ctx.close();
    dirs.cleanup();
  }
});

test.run();
