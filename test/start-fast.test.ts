/**
 * One fast way in: `svc` on PATH is a link to bin/svc.js (the README's set-up,
 * no root), which works from any folder, and `svc serve` starts without
 * loading the heavy packages that only some commands need (the MCP SDK, the
 * PDF parser, the mailer), so it serves within moments of being started
 * (bench/serve-startup.mjs measures it).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tempDirs, waitFor } from './_setup.js';

const dirs = tempDirs();
test.after(() => dirs.cleanup());

/** A folder holding `svc`, a symbolic link to the checkout's bin/svc.js, as `ln -s "$PWD/bin/svc.js" ~/.local/bin/svc` makes it. */
function linkedBin(): { bin: string; PATH: string } {
  const bin = path.join(dirs.root, 'home', '.local', 'bin');
  fs.mkdirSync(bin, { recursive: true });
  if (!fs.existsSync(path.join(bin, 'svc'))) fs.symlinkSync(path.join(ROOT, 'bin', 'svc.js'), path.join(bin, 'svc'));
  return { bin, PATH: [bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter) };
}

test('svc as a link on PATH runs from any folder: its own version, and a command that reads the data folder', () => {
  const { PATH } = linkedBin();
  const elsewhere = fs.mkdtempSync(path.join(dirs.root, 'elsewhere-'));
  const version = spawnSync('svc', ['--version'], { cwd: elsewhere, env: { ...dirs.env, PATH }, encoding: 'utf8' });
  assert.is(version.status, 0, version.stderr);
  assert.is(version.stdout.trim(), JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  const status = spawnSync('svc', ['--json', 'library', 'status'], { cwd: elsewhere, env: { ...dirs.env, PATH }, encoding: 'utf8' });
  assert.is(status.status, 0, status.stderr);
  assert.is(JSON.parse(status.stdout).configured, false);
  assert.equal(fs.readdirSync(elsewhere), [], 'nothing written where it was run');
});

test('svc serve through the link, from another folder, starts serving', async () => {
  const { PATH } = linkedBin();
  const child = spawn('svc', ['serve', '--port', '0'], { cwd: dirs.root, env: { ...dirs.env, PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (d) => (said += d));
  child.stderr.on('data', (d) => (said += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(said), 30_000, 'the server to listen');
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
});

/** Every package a compiled module reaches through static imports (dynamic import() is what keeps a package out). */
function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  walk(entry);
  return packages;
}

test('svc serve loads none of the heavy packages at start: the MCP SDK, the PDF parser and the mailer come with the work that needs them', () => {
  const dist = path.join(ROOT, 'dist');
  const loaded = new Set([...staticPackages(path.join(dist, 'commands', 'server', 'serve.js')), ...staticPackages(path.join(dist, 'server', 'listen.js'))]);
  assert.ok(loaded.has('h3') && loaded.has('better-sqlite3'), `the walk sees the server's packages: ${[...loaded].join(', ')}`);
  for (const heavy of ['@modelcontextprotocol/sdk', 'pdfjs-dist', 'nodemailer']) assert.not.ok(loaded.has(heavy), `${heavy} is loaded when svc serve starts`);
  // And the walk can see one: svc mcp does load the SDK (lazily, but its server module statically).
  assert.ok(staticPackages(path.join(dist, 'src', 'mcp', 'server.js')).has('@modelcontextprotocol/sdk'));
});

test.run();
