import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../commands/main.js';
import { ROOT, runCli, startTestServer, tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';

// As processes: what bin/svc.js itself answers (help, version, a usage error's exit code) and a command run from another folder.
test('--help lists every command and exits 0; --version prints the version', async () => {
  const help = await runCli(['--help']);
  assert.is(help.code, 0);
  for (const c of COMMANDS) assert.match(help.stdout, new RegExp(`\\n\\s+${c.name}\\b`), c.name);
  const version = await runCli(['--version']);
  assert.is(version.stdout.trim(), JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
});

test('every command has --help and --json documented', async () => {
  for (const c of COMMANDS) {
    const r = await runCliInProcess([c.name, '--help']);
    assert.is(r.code, 0, c.name);
    assert.match(r.stdout, /Usage: svc/, c.name);
  }
  assert.match((await runCliInProcess(['--help'])).stdout, /--json/);
});

test('an unknown command or option is a usage error (exit 2)', async () => {
  assert.is((await runCli(['no-such-command'])).code, 2);
  assert.is((await runCli(['settings', 'get', '--no-such-flag'])).code, 2);
});

test('every command has a man page section; exit codes documented', () => {
  const pages = fs.readdirSync(path.join(ROOT, 'man')).map((f) => fs.readFileSync(path.join(ROOT, 'man', f), 'utf8')).join('\n');
  for (const c of COMMANDS) assert.ok(new RegExp(`\\bsvc ${c.name}\\b`).test(pages.replace(/\\-/g, '-')) || fs.existsSync(path.join(ROOT, 'man', `svc-${c.name}.1`)), `man page for ${c.name}`);
  const main = fs.readFileSync(path.join(ROOT, 'man', 'svc.1'), 'utf8');
  assert.match(main, /\.SH EXIT STATUS/);
  for (const code of ['0', '1', '2', '3', '4', '5', '6', '7', '130']) assert.match(main, new RegExp(`\\.B ${code}\\n`), `exit ${code}`);
});

test('health without a server says so in one line and exits 1', async () => {
  const dirs = tempDirs();
  try {
    const r = await runCliInProcess(['health'], { env: dirs.env });
    assert.is(r.code, 1);
    assert.is(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /svc serve/);
    const json = await runCliInProcess(['--json', 'health'], { env: dirs.env });
    assert.is(JSON.parse(json.stdout).error, 'server_not_running');
  } finally {
    dirs.cleanup();
  }
});

test('health finds a running server through the port and token files', async () => {
  const t = await startTestServer();
  try {
    const r = await runCliInProcess(['--json', 'health'], { env: t.dirs.env });
    assert.is(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.is(body.identity.runtime_id, t.ctx.runtimeId);
    assert.is(body.base_url, `http://127.0.0.1:${t.port}`);
    const human = await runCliInProcess(['health'], { env: t.dirs.env });
    assert.match(human.stdout, /is running on http:\/\/127\.0\.0\.1:\d+/);
    // The daemon state in words, not the API's lock_present/absent.
    assert.match(human.stdout, /scheduler \w+, no daemon\n/);
    // A named port is never widened to another one.
    const named = await runCliInProcess(['health'], { env: { ...t.dirs.env, SVC_PORT: String(t.port === 65535 ? 1 : t.port + 1) } });
    assert.is(named.code, 1);
    // A token file the server does not accept (left by an earlier server, or another program on the port):
    // exit 6 and what to do, not the server's "read it again" (the CLI just did).
    const tokenFile = path.join(t.dirs.stateDir, `api-token-${t.port}`);
    const real = fs.readFileSync(tokenFile, 'utf8');
    fs.writeFileSync(tokenFile, 'x'.repeat(43), { mode: 0o600 });
    try {
      const refused = await runCliInProcess(['health'], { env: t.dirs.env });
      assert.is(refused.code, 6);
      assert.match(refused.stderr, /does not accept the token published for port \d+: .*restart `svc serve`/);
      assert.not.match(refused.stderr, /read it again/);
    } finally {
      fs.writeFileSync(tokenFile, real, { mode: 0o600 });
    }
  } finally {
    await t.close();
  }
});

test('routes lists the mounted routes; --missing compares with the spec table', async () => {
  const listed = await runCliInProcess(['routes']);
  assert.match(listed.stdout, /^GET \/api\/health$/m);
  const dirs = tempDirs();
  try {
    fs.mkdirSync(dirs.root, { recursive: true });
    const spec = path.join(dirs.root, 'routes.tsv');
    fs.writeFileSync(spec, 'method\tpath\tdoc\tauth\tnote\nGET\t/api/health\t1\ttoken\thealth\nGET\t/api/not-built\t1\ttoken\tlater\n');
    const missing = await runCliInProcess(['routes', '--missing'], { env: { SVC_SPEC_ROUTES: spec } });
    assert.is(missing.stdout.trim(), 'GET /api/not-built');
    const absent = await runCliInProcess(['routes', '--missing'], { env: { SVC_SPEC_ROUTES: path.join(dirs.root, 'nope.tsv') } });
    assert.is(absent.code, 3);
    assert.match(absent.stderr, /does not exist/);
  } finally {
    dirs.cleanup();
  }
});

test('routes --missing works from a clean clone, from any folder: it reads the spec table svc ships, kept equal to the spec', async () => {
  const shipped = path.join(ROOT, 'spec', 'routes.tsv');
  const dirs = tempDirs();
  try {
    fs.mkdirSync(dirs.root, { recursive: true });
    // A folder with no ../shared/spec beside it, as a clone elsewhere has.
    const r = await runCli(['routes', '--missing', '--json'], { cwd: dirs.root });
    assert.is(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { spec_file: string; spec_total: number; missing: unknown[] };
    assert.is(answer.spec_file, shipped);
    assert.is(answer.spec_total, fs.readFileSync(shipped, 'utf8').trim().split('\n').length - 1);
    const human = await runCli(['routes', '--missing'], { cwd: dirs.root });
    if (answer.missing.length === 0) assert.match(human.stderr, new RegExp(`All ${answer.spec_total} routes of the spec table`));
  } finally {
    dirs.cleanup();
  }
  const spec = path.join(ROOT, '..', 'shared', 'spec', 'routes.tsv');
  if (fs.existsSync(spec)) assert.is(fs.readFileSync(shipped, 'utf8'), fs.readFileSync(spec, 'utf8'), 'spec/routes.tsv differs from the spec: copy it again');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  assert.ok(pkg.files.includes('spec'), 'an install carries the table too');
});

test.run();
