/**
 * Ctrl-C during `svc cloud backup`, while the bundle is written and while it is uploaded: exit
 * 130 and no hidden .cloud-* bundle left in the backups folder.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { linkCloud } from '../src/admin/cloud.js';
import { ROOT, tempDirs, type TempDirs } from './_setup.js';

/** A WebDAV server that links and makes folders, takes the upload's bytes and never answers the PUT. */
async function stallingDav(): Promise<{ url: string; puts: () => number; onPut: (fn: () => void) => void; close(): Promise<void> }> {
  let puts = 0;
  let putSeen = () => {};
  const server = http.createServer((req, res) => {
    if (req.method === 'PUT') {
      puts++;
      req.resume();
      putSeen();
      return;
    }
    req.resume();
    // No bundle is there before the upload: the name svc checks is free.
    if (req.method === 'PROPFIND' && req.url?.endsWith('.tar')) res.writeHead(404).end();
    else if (req.method === 'PROPFIND') res.writeHead(207, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"/>');
    else res.writeHead(201).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    puts: () => puts,
    onPut: (fn) => (putSeen = fn),
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function installation(dav: string, padMiB: number): Promise<TempDirs> {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  ctx.db.exec('CREATE TABLE zz_padding (b BLOB)');
  const pad = ctx.db.prepare('INSERT INTO zz_padding VALUES (zeroblob(?))');
  for (let i = 0; i < padMiB / 4; i++) pad.run(4 * 1024 * 1024);
  await linkCloud(ctx, { url: dav, username: 'alice', password: 'dav-secret-pw-7731' });
  await ctx.close();
  fs.mkdirSync(path.join(dirs.dataDir, 'backups'), { recursive: true });
  return dirs;
}

/**
 * Runs `svc cloud backup` and sends SIGINT the first time `when` matches a name in the backups
 * folder, or (`arm`) when the caller's own trigger fires.
 */
async function interruptWhen(dirs: TempDirs, when: (name: string) => boolean, arm?: (press: () => void) => void) {
  const backups = path.join(dirs.dataDir, 'backups');
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'cloud', 'backup'], { env: { PATH: process.env.PATH, ...dirs.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (code, signal) => r([code, signal])));
  let pressed = false;
  const press = () => {
    if (pressed) return;
    pressed = true;
    child.kill('SIGINT');
  };
  arm?.(press);
  const watcher = fs.watch(backups, (_, name) => {
    if (name && when(String(name))) press();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = await exited;
  clearTimeout(timer);
  watcher.close();
  return { code, signal, stderr, pressed, left: fs.readdirSync(backups) };
}

test('Ctrl-C while the cloud bundle is written: exit 130, no hidden bundle or partial left', async () => {
  const dav = await stallingDav();
  const dirs = await installation(dav.url, 192);
  try {
    const r = await interruptWhen(dirs, (n) => n.startsWith('.cloud-') && n.endsWith('.partial'));
    assert.ok(r.pressed, 'the partial bundle appeared');
    assert.is(r.signal, null, 'not killed by the signal');
    assert.is(r.code, 130, r.stderr);
    assert.equal(r.left, [], 'nothing left in the backups folder');
    assert.is(dav.puts(), 0, 'no upload began');
  } finally {
    dirs.cleanup();
    await dav.close();
  }
});

test('Ctrl-C while the bundle is uploaded (the server never answers the PUT): exit 130 at once, the local bundle removed', async () => {
  const dav = await stallingDav();
  const dirs = await installation(dav.url, 0);
  try {
    const started = Date.now();
    // Pressed when the server has the PUT: the upload is under way.
    const r = await interruptWhen(dirs, () => false, (press) => dav.onPut(press));
    assert.ok(r.pressed, 'the upload began');
    assert.is(r.signal, null, 'not killed by the signal');
    assert.is(r.code, 130, r.stderr);
    assert.ok(Date.now() - started < 10_000, 'did not wait for the upload timeout');
    assert.equal(r.left, [], 'the hidden .cloud-*.tar is removed');
    assert.match(r.stderr, /interrupted/);
  } finally {
    dirs.cleanup();
    await dav.close();
  }
});

test.run();
