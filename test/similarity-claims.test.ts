/**
 * The claim rows themselves (db/job-claims.ts, util/process-claim.ts): a
 * release the database refuses is owed and settled later, never thrown into
 * the job's result, so the job does not look held while its process lives.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { claimJob, jobHolder, releaseJob } from '../src/db/job-claims.js';
import { ROOT, tempDirs, waitFor } from './_setup.js';

const quiet = () => createLogger({ level: 'error', sink: () => {} });
const claims = (db: Sqlite.Database) => db.prepare('SELECT job FROM job_claims').pluck().all();

test('a release refused by a busy database does not throw into the job, and the claim is gone once the lock is released', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet(), tuning: { claimReleaseRetryMs: 30 } });
  const elsewhere = createContext({ env: dirs.env, log: quiet() }); // how another process sees the claim
  let lock: Sqlite.Database | undefined;
  try {
    ctx.db.pragma('busy_timeout = 50');
    assert.is(claimJob(ctx, 'links.scan').holder, null);
    assert.ok(jobHolder(elsewhere, 'links.scan'), 'held, as another process sees it');
    lock = new Sqlite(ctx.paths.database);
    lock.exec('BEGIN IMMEDIATE'); // another writer, past the busy timeout
    const result = (() => {
      try {
        return 'the job result';
      } finally {
        releaseJob(ctx, 'links.scan');
      }
    })();
    assert.is(result, 'the job result');
    assert.equal(claims(lock), ['links.scan'], 'the row stays while the database refuses');
    await new Promise((r) => setTimeout(r, 120)); // retries meanwhile fail too, quietly
    lock.exec('COMMIT');
    await waitFor(() => claims(elsewhere.db).length === 0, 3000, 'the owed release');
    assert.is(jobHolder(elsewhere, 'links.scan'), null);
    assert.is(claimJob(elsewhere, 'links.scan').holder, null, 'another process can take the job');
  } finally {
    lock?.close();
    await ctx.close();
    await elsewhere.close();
    dirs.cleanup();
  }
});

test('a release still owed when the process exits is settled at exit', async () => {
  const dirs = tempDirs();
  const dist = path.join(ROOT, 'dist', 'src');
  const script = `
    const { createContext } = await import(${JSON.stringify(path.join(dist, 'context.js'))});
    const { createLogger } = await import(${JSON.stringify(path.join(dist, 'log.js'))});
    const { claimJob, releaseJob } = await import(${JSON.stringify(path.join(dist, 'db', 'job-claims.js'))});
    const ctx = createContext({ log: createLogger({ level: 'error', sink: () => {} }), tuning: { claimReleaseRetryMs: 600000 } });
    ctx.db.pragma('busy_timeout = 50');
    claimJob(ctx, 'links.scan');
    console.log('claimed');
    process.stdin.on('data', (d) => {
      const cmd = String(d).trim();
      if (cmd === 'release') { releaseJob(ctx, 'links.scan'); console.log('released'); }
      if (cmd === 'exit') process.exit(0);
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...dirs.env } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.once('exit', r));
  let lock: Sqlite.Database | undefined;
  try {
    await waitFor(() => out.includes('claimed'), 10_000, `the child's claim: ${out}`);
    lock = new Sqlite(path.join(dirs.dataDir, 'svc.db'));
    lock.exec('BEGIN IMMEDIATE');
    child.stdin.write('release\n');
    await waitFor(() => out.includes('released'), 10_000, `the child's release: ${out}`);
    assert.equal(claims(lock), ['links.scan'], 'refused while locked');
    lock.exec('COMMIT');
    child.stdin.write('exit\n');
    await exited;
    assert.equal(claims(lock), [], 'released at exit (the retry timer was far off)');
  } finally {
    child.kill('SIGKILL');
    lock?.close();
    dirs.cleanup();
  }
});

test.run();
