/**
 * `--json` means one JSON document on stdout, for every command: successes,
 * refusals, usage errors and argument errors alike. Talk goes to stderr.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../commands/main.js';
import { fixture, ROOT, tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub, type Stub } from './_stub.js';

const dirs = tempDirs();
let crossref: Stub;
let env: Record<string, string>;
const files = path.join(dirs.root, 'files');

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
  fs.mkdirSync(files);
  fs.writeFileSync(path.join(files, 'note.md'), '# note\n');
});
test.after(async () => {
  await crossref.close();
  dirs.cleanup();
});

/** Run with --json; stdout must parse as exactly one JSON document. Answers it and the exit code. */
async function json(args: string[], expectCode?: number, stdin?: string): Promise<{ code: number; doc: any; stderr: string }> {
  const r = await runCliInProcess(['--json', ...args], { env, stdin });
  let doc: unknown;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    assert.unreachable(`svc --json ${args.join(' ')} (exit ${r.code}) printed no single JSON document on stdout:\n${r.stdout}\n--- stderr:\n${r.stderr}`);
  }
  if (expectCode !== undefined) assert.is(r.code, expectCode, `svc --json ${args.join(' ')}: ${r.stderr}`);
  if (r.code !== 0) assert.ok(typeof (doc as any).error === 'string' || expectCode === r.code, `an error document for ${args.join(' ')}`);
  return { code: r.code, doc, stderr: r.stderr };
}

test('every command family answers one JSON document on stdout', async () => {
  // settings, credentials, sources, routes
  assert.ok((await json(['settings', 'get'], 0)).doc.email);
  assert.is((await json(['settings', 'get', 'email', 'smtp_port'], 0)).doc.value, 587);
  assert.is((await json(['settings', 'set', 'email', 'smtp_port', '2525'], 0)).doc.value, 2525);
  assert.ok(Array.isArray((await json(['credentials', 'list'], 0)).doc.credentials));
  assert.is((await json(['credentials', 'set', 'openalex_api_key'], 0, 'k-123\n')).doc.status, 'present');
  assert.is((await json(['credentials', 'delete', 'openalex_api_key', '--yes'], 0)).doc.status, 'absent');
  assert.ok((await json(['sources'], 0)).doc.repositories.length > 10);
  assert.ok((await json(['routes'], 0)).doc.routes.length > 10);
  // runs and what they leave
  assert.is((await json(['dive', 'crossref', 'ecology', '--max', '2'], 0)).doc.status, 'completed');
  assert.is((await json(['sweep', 'ecology', '--sources', 'crossref', '--max', '2'], 0)).doc.type, 'sweep');
  assert.is((await json(['executions', 'list'], 0)).doc.executions.length, 2);
  assert.is((await json(['executions', 'show', '1'], 0)).doc.id, 1);
  assert.ok((await json(['executions', 'log', '1'], 0)).doc.events.length > 0);
  assert.match((await json(['executions', 'report', '1'], 0)).doc.text, /ecology/i);
  assert.ok((await json(['executions', 'record', '1'], 0)).doc);
  assert.is((await json(['executions', 'cancel', '1'])).code, 4, 'a finished run cannot be cancelled');
  assert.is((await json(['executions', 'restart', '1'], 0)).doc.status, 'completed');
  assert.is((await json(['executions', 'delete', '3', '--yes'], 0)).doc.deleted, true);
  for (const format of ['bibtex', 'ris', 'csv', 'json']) {
    const { doc } = await json(['export', 'references', '--exec', '1', '--format', format], 0);
    assert.equal([doc.format, doc.count, typeof doc.text], [format, 2, 'string'], format);
  }
  const out = path.join(dirs.root, 'refs.bib');
  assert.is((await json(['export', 'references', '--exec', '1', '-o', out], 0)).doc.output, out);
  // routines and configurations
  assert.is((await json(['routine', 'add', '--name', 'eco', '--schedule', '@daily', '--query', 'ecology', '--sources', 'crossref', '--max', '2'], 0)).doc.id, 1);
  assert.is((await json(['routine', 'list'], 0)).doc.routines.length, 1);
  assert.is((await json(['routine', 'show', '1'], 0)).doc.name, 'eco');
  assert.is((await json(['routine', 'edit', '1', '--intent', 'ecology of animals'], 0)).doc.intent, 'ecology of animals');
  assert.is((await json(['routine', 'run', '1'], 0)).doc.type, 'routine');
  assert.is((await json(['routine', 'deactivate', '1'], 0)).doc.is_active, false);
  assert.is((await json(['routine', 'activate', '1'], 0)).doc.is_active, true);
  assert.ok('judged' in (await json(['routine', 'coverage', '1'], 0)).doc);
  assert.ok((await json(['routine', 'jobs'], 0)).doc.jobs);
  assert.is((await json(['routine', 'delete', '1', '--yes'], 0)).doc.deleted, true);
  assert.is((await json(['config', 'add', '--name', 'c', '--type', 'dive', '--parameters', '{"repository":"crossref","query":"x"}'], 0)).doc.id, 1);
  assert.is((await json(['config', 'list'], 0)).doc.total, 1);
  const exported = (await json(['config', 'export', '1'], 0)).doc;
  const file = path.join(dirs.root, 'configs.json');
  fs.writeFileSync(file, JSON.stringify(exported));
  assert.is((await json(['config', 'import', file], 0)).doc.already_present[0].id, 1, 'already saved: not doubled');
  assert.is((await json(['config', 'delete', '1', '--yes'], 0)).doc.deleted, true);
  const back = (await json(['config', 'import', file], 0)).doc;
  assert.is(back.count, 1);
  assert.is((await json(['config', 'delete', String(back.imported[0].id), '--yes'], 0)).doc.deleted, true);
  // library
  assert.is((await json(['library', 'status'], 0)).doc.configured, false);
  assert.ok((await json(['library', 'init', path.join(dirs.root, 'Papers')], 0)).doc.vault);
  const imported = (await json(['library', 'import', path.join(files, 'note.md')], 0)).doc;
  const fileId = imported.results[0].file_id;
  assert.is((await json(['library', 'list'], 0)).doc.items.length, 1);
  assert.is((await json(['library', 'show', fileId], 0)).doc.file.file_id, fileId);
  assert.is((await json(['library', 'link', fileId, '1'], 0)).doc.created, true);
  assert.match((await json(['library', 'text', fileId], 0)).doc.text, /# note/);
  assert.ok((await json(['library', 'export'], 0)).doc.text);
  assert.is((await json(['library', 'check'], 0)).doc.ok, true);
  // health has no server here: still one JSON document
  assert.ok((await json(['health'])).doc.error);
});

test('usage errors under --json: {"error", "message"} on stdout, exit 2, for every command', async () => {
  for (const c of COMMANDS) {
    const { doc } = await json([c.name, '--no-such-flag'], 2);
    assert.equal(Object.keys(doc).sort(), ['error', 'message'], c.name);
  }
  for (const args of [['no-such-command'], ['executions', 'show'], ['executions', 'list', '--limit', '1.5'], ['executions', 'show', 'x'], ['dive', 'crossref', 'x', '--from', '2999-01-01']]) {
    const { doc, stderr } = await json(args, 2);
    assert.type(doc.message, 'string', args.join(' '));
    assert.ok(stderr.length > 0, 'the refusal is also said on stderr');
  }
});

test('serve --json prints one JSON line and nothing else on stdout', async () => {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), '--json', 'serve', '--port', '0'], { env: { PATH: process.env.PATH, ...env } });
  let stdout = '';
  // Stopped the moment the line arrives, as a supervisor would: the server must already listen for it.
  let stopped = false;
  child.stdout.on('data', (d) => {
    stdout += d;
    if (!stopped && stdout.includes('\n')) (stopped = true), child.kill('SIGTERM'); // once: a second one ends shutdown at once
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  assert.is(await exited, 0);
  clearTimeout(timer);
  assert.match(JSON.parse(stdout).base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
});

test.run();
