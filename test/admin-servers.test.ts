import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig } from '../src/config.js';
import { resolvePaths } from '../src/paths.js';
import { ROOT, runCli, tempDirs, waitFor } from './_setup.js';

const portFileOf = (env: Record<string, string>) => resolvePaths(readConfig(env)).portFile;

function serve(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'serve', '--port', '0'], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
const published = async (env: Record<string, string>, pid?: number) =>
  waitFor(() => {
    const file = portFileOf(env);
    if (!fs.existsSync(file)) return undefined;
    const p = JSON.parse(fs.readFileSync(file, 'utf8'));
    return pid === undefined || p.pid === pid ? (p as { port: number; pid: number }) : undefined;
  }, 15_000, 'port file');
const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

test('several servers on one machine: each client finds the server of its own data directory', async () => {
  const dirs = tempDirs();
  const envA = { ...dirs.env, SVC_DATA_DIR: path.join(dirs.root, 'data-a') };
  const envB = { ...dirs.env, SVC_DATA_DIR: path.join(dirs.root, 'data-b') };
  const children: ChildProcess[] = [];
  try {
    const a = serve(envA);
    children.push(a);
    const pa = await published(envA, a.pid);
    const b = serve(envB);
    children.push(b);
    const pb = await published(envB, b.pid);
    assert.is.not(pa.port, pb.port);
    assert.is((await published(envA)).pid, a.pid, 'the second server left the first one port file alone');
    const ha = await runCli(['--json', 'health'], { env: envA });
    const hb = await runCli(['--json', 'health'], { env: envB });
    assert.is(ha.code, 0, ha.stderr);
    assert.is(hb.code, 0, hb.stderr);
    assert.is(JSON.parse(ha.stdout).base_url, `http://127.0.0.1:${pa.port}`);
    assert.is(JSON.parse(hb.stdout).base_url, `http://127.0.0.1:${pb.port}`);

    // A second server of the same data directory on another port neither deletes nor overwrites the first one's file.
    const a2 = serve(envA);
    children.push(a2);
    await waitFor(() => fs.readdirSync(dirs.stateDir).filter((n) => n.startsWith('api-token-')).length === 3, 15_000, 'third token file');
    assert.is((await published(envA)).pid, a.pid);
    a2.kill('SIGTERM');
    await exited(a2);
    assert.is((await published(envA)).pid, a.pid, 'still there after the second one stopped');
    assert.is((await runCli(['health'], { env: envA })).code, 0);

    // kill -9: the port file stays behind, and is recognised as stale.
    a.kill('SIGKILL');
    await exited(a);
    assert.ok(fs.existsSync(portFileOf(envA)));
    const stale = await runCli(['health'], { env: envA });
    assert.is(stale.code, 1);
    assert.match(stale.stderr, /No svc server is running/);
    assert.match(stale.stderr, /gone/);
    assert.is(stale.stderr.trim().split('\n').length, 1);
    const staleJson = await runCli(['--json', 'health'], { env: envA });
    assert.is(JSON.parse(staleJson.stdout).error, 'server_not_running');
    assert.is((await runCli(['health'], { env: envB })).code, 0, 'the other server is untouched');
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await Promise.all(children.map(exited));
    dirs.cleanup();
  }
});

test.run();
