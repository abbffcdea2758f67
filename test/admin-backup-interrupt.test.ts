import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { ROOT, tempDirs } from './_setup.js';

test('Ctrl-C during `svc backup` exits 130 and leaves no partial bundle or snapshot behind', async () => {
  const dirs = tempDirs();
  try {
    // A database big enough that the backup is still writing when the signal comes.
    const ctx = createContext({ env: dirs.env, log: silentLogger });
    ctx.db.exec('CREATE TABLE zz_padding (b BLOB)');
    const pad = ctx.db.prepare('INSERT INTO zz_padding VALUES (zeroblob(?))');
    for (let i = 0; i < 48; i++) pad.run(4 * 1024 * 1024);
    await ctx.close();
    const outDir = path.join(dirs.root, 'out');
    fs.mkdirSync(outDir);
    const target = path.join(outDir, 'b.tar');
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'backup', '-o', target], { env: { PATH: process.env.PATH, ...dirs.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (code, signal) => r([code, signal])));
    // Interrupted the moment the partial bundle appears, as a person pressing Ctrl-C mid-backup.
    let pressed = false;
    const watcher = fs.watch(outDir, (_, name) => {
      if (name !== 'b.tar.partial' || pressed) return;
      pressed = true;
      child.kill('SIGINT');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, signal] = await exited;
    clearTimeout(timer);
    watcher.close();
    assert.is(signal, null, 'not killed by the signal');
    assert.is(code, 130, stderr);
    assert.equal(fs.readdirSync(outDir), [], 'no partial bundle and no bundle');
    const backups = path.join(dirs.dataDir, 'backups');
    assert.equal(fs.existsSync(backups) ? fs.readdirSync(backups).filter((f) => f.startsWith('.snapshot-')) : [], [], 'no database snapshot');
  } finally {
    dirs.cleanup();
  }
});

test.run();
