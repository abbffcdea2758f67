import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createContext, type Context } from '../src/context.js';
import { checkLibrary, configureLibrary, createVault, importFile, openFile, type ImportHooks } from '../src/library/index.js';
import { isSvcError, type SvcError } from '../src/errors.js';
import { ROOT, tempDirs, type TempDirs } from './_setup.js';

const KILLED_BYTES = 'the bytes of an import that was killed\n';

/** A child process that imports KILLED_BYTES and SIGKILLs itself at `stage`. */
function importAndDie(dirs: TempDirs, stage: keyof ImportHooks): Promise<NodeJS.Signals | null> {
  const dist = (p: string) => pathToFileURL(path.join(ROOT, 'dist', p)).href;
  const script = `
    import { createContext } from '${dist('src/context.js')}';
    import { configureLibrary, importFile, libraryStatus } from '${dist('src/library/index.js')}';
    const ctx = createContext({ env: ${JSON.stringify(dirs.env)} });
    configureLibrary(ctx, { hooks: { ${stage}: () => process.kill(process.pid, 'SIGKILL') } });
    await importFile(ctx, { expectedVaultId: libraryStatus(ctx).vault.vault_id, filename: 'killed.txt', bytes: Buffer.from(${JSON.stringify(KILLED_BYTES)}) });
    console.log('not killed');
  `;
  const file = path.join(dirs.root, `die-${stage}.mjs`);
  fs.writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { stdio: 'inherit' });
    child.on('exit', (_code, signal) => resolve(signal));
  });
}

interface Setup {
  dirs: TempDirs;
  ctx: Context;
  vaultId: string;
  root: string;
  kept: { file_id: string; version_id: string };
}

async function setup(hooks: ImportHooks = {}): Promise<Setup> {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  configureLibrary(ctx, { hooks });
  fs.mkdirSync(path.join(dirs.root, 'parent'));
  const status = await createVault(ctx, path.join(dirs.root, 'parent'));
  const vaultId = status.vault!.vault_id;
  const root = path.join(fs.realpathSync(path.join(dirs.root, 'parent')), status.vault!.label);
  const kept = (await importFile(ctx, { expectedVaultId: vaultId, filename: 'kept.txt', bytes: Buffer.from('kept\n') })).file;
  return { dirs, ctx, vaultId, root, kept };
}

async function refused(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (err) {
    if (isSvcError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const tryImport = (x: Setup, name: string, bytes: string) => importFile(x.ctx, { expectedVaultId: x.vaultId, filename: name, bytes: Buffer.from(bytes) });
const fileCount = (x: Setup) => (x.ctx.db.prepare('SELECT COUNT(*) AS n FROM library_files').get() as { n: number }).n;

test('killed between publishing the bytes and the catalog commit: imports blocked with a clear reason, nothing lost', async () => {
  const x = await setup();
  try {
    assert.is(await importAndDie(x.dirs, 'beforeCommit'), 'SIGKILL');
    assert.is(fileCount(x), 1, 'the killed import is not in the catalog');
    const lockFile = path.join(x.root, '.svc-import.lock');
    assert.ok(fs.existsSync(lockFile), 'the lock outlived its process');

    // 1. The leftover lock blocks, saying what to do.
    const lock = await refused(tryImport(x, 'next.txt', 'next'));
    assert.is(lock.status, 409);
    assert.is(lock.reason, 'import_blocked_lock');
    assert.is(lock.extra.lock_holder_running, false);
    assert.match(lock.message, /svc library check/);
    assert.match(lock.message, /delete/);
    assert.not.ok(lock.message.includes(x.root));

    // 2. check names the lock and the orphan bytes, and the kept file still verifies.
    const report = checkLibrary(x.ctx);
    assert.equal(report.problems.map((p) => p.kind).sort(), ['lock_present', 'orphan']);
    const orphan = report.problems.find((p) => p.kind === 'orphan')!;
    assert.match(orphan.path, /^files\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.txt$/);
    assert.is(fs.readFileSync(path.join(x.root, orphan.path), 'utf8'), KILLED_BYTES, 'the published bytes are kept whole');
    assert.is((await openFile(x.ctx, { expectedVaultId: x.vaultId, fileId: x.kept.file_id, expectedVersionId: x.kept.version_id })).sha256.length, 64);

    // 3. With the lock removed, the orphan blocks.
    fs.unlinkSync(lockFile);
    const orphans = await refused(tryImport(x, 'next.txt', 'next'));
    assert.is(orphans.reason, 'import_blocked_orphans');
    assert.equal(orphans.extra.paths, [orphan.path]);
    assert.match(orphans.message, /svc library check/);

    // 4. Moving the orphan out unblocks; importing it again records it.
    const rescued = path.join(x.dirs.root, 'rescued.txt');
    fs.renameSync(path.join(x.root, orphan.path), rescued);
    fs.rmdirSync(path.dirname(path.join(x.root, orphan.path)));
    const again = await importFile(x.ctx, { expectedVaultId: x.vaultId, filename: 'killed.txt', bytes: fs.readFileSync(rescued) });
    assert.is(again.outcome, 'created');
    assert.is(fileCount(x), 2);
    assert.ok(checkLibrary(x.ctx).ok);
  } finally {
    await x.ctx.close();
    x.dirs.cleanup();
  }
});

test('killed before publishing: the unpublished temporary copy and the lock block until removed', async () => {
  const x = await setup();
  try {
    assert.is(await importAndDie(x.dirs, 'afterTemp'), 'SIGKILL');
    fs.unlinkSync(path.join(x.root, '.svc-import.lock'));
    const err = await refused(tryImport(x, 'next.txt', 'next'));
    assert.is(err.reason, 'import_blocked_orphans');
    const report = checkLibrary(x.ctx);
    assert.equal(report.problems.map((p) => p.kind), ['temp_leftover']);
    assert.match(report.problems[0]!.path, /^files\/[0-9a-f-]{36}\/\.tmp-[0-9a-f-]{36}$/);
    assert.is(fs.readFileSync(path.join(x.root, report.problems[0]!.path), 'utf8'), KILLED_BYTES);
  } finally {
    await x.ctx.close();
    x.dirs.cleanup();
  }
});

test('a failure in the process cleans only that operation\'s unpublished bytes and releases the lock', async () => {
  let fail: 'afterTemp' | 'beforeCommit' | null = null;
  const boom = (stage: 'afterTemp' | 'beforeCommit') => () => {
    if (fail === stage) throw new Error('disk trouble');
  };
  const x = await setup({ afterTemp: boom('afterTemp'), beforeCommit: boom('beforeCommit') });
  try {
    const listing = () => fs.readdirSync(path.join(x.root, 'files')).sort();
    const before = listing();
    for (const stage of ['afterTemp', 'beforeCommit'] as const) {
      fail = stage;
      const outcome = await tryImport(x, 'fails.txt', `fails at ${stage}`).then(() => 'imported', (err: Error) => err.message);
      assert.match(outcome, /disk trouble|Writing the retained copy failed/);
      assert.equal(listing(), before, `${stage}: nothing of the failed import remains`);
      assert.not.ok(fs.existsSync(path.join(x.root, '.svc-import.lock')));
      assert.is(fileCount(x), 1);
    }
    fail = null;
    assert.is((await tryImport(x, 'works.txt', 'works now')).outcome, 'created');
    assert.ok(checkLibrary(x.ctx).ok);
    assert.is(fs.readFileSync(path.join(x.root, 'files', x.kept.file_id, `${x.kept.version_id}.txt`), 'utf8'), 'kept\n', 'retained copies untouched');
  } finally {
    await x.ctx.close();
    x.dirs.cleanup();
  }
});

test('a second process is kept out by the lock while an import runs', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const atCommit = new Promise<void>((r) => (reached = r));
  let hold = false;
  const x = await setup({ beforeCommit: () => (hold ? (reached(), gate) : undefined) });
  const other = createContext({ env: x.dirs.env });
  try {
    hold = true;
    const slow = tryImport(x, 'slow.txt', 'slow import');
    await atCommit; // the import holds the lock, at its commit
    const err = await refused(importFile(other, { expectedVaultId: x.vaultId, filename: 'other.txt', bytes: Buffer.from('other') }));
    assert.is(err.reason, 'import_blocked_lock');
    assert.is(err.extra.lock_holder_running, true);
    assert.match(err.message, /wait/);
    hold = false;
    release();
    assert.is((await slow).outcome, 'created');
    assert.is((await importFile(other, { expectedVaultId: x.vaultId, filename: 'other.txt', bytes: Buffer.from('other') })).outcome, 'created');
  } finally {
    await other.close();
    await x.ctx.close();
    x.dirs.cleanup();
  }
});

test.run();
