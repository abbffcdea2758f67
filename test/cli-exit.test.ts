/**
 * Exit codes per command family: 0 success, 1 the operation ran and failed,
 * 2 usage (checked before anything runs), 130 Ctrl-C at a prompt or during a
 * foreground run. (3–7 refine 1; see svc(1) EXIT STATUS.)
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { askRoutine, type Prompter } from '../commands/routine/ask.js';
import { exitCodeFor, EXIT } from '../commands/lib/exit-codes.js';
import { createContext } from '../src/context.js';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, ROOT, runCli, tempDirs } from './_setup.js';

const dirs = tempDirs();
let env: Record<string, string>;
const svc = (...args: string[]) => runCli(args, { env });
// arXiv is a loopback port that refuses: a run fails there, and nothing is asked of the real one.
test.before(async () => {
  env = { ...dirs.env, SVC_SOURCE_ARXIV_URL: `http://127.0.0.1:${await freePort()}/api` };
});
test.after(() => dirs.cleanup());

test('executions list --limit 1.5|abc|0|-5|201: exit 2 naming --limit, the value and the range; nothing internal', async () => {
  for (const value of ['1.5', 'abc', '0', '-5', '201']) {
    const r = await svc('executions', 'list', '--limit', value);
    assert.is(r.code, 2, value);
    assert.match(r.stderr, new RegExp(`--limit must be a whole number from 1 to 200, not "${value.replace('.', '\\.')}"`), value);
    assert.not.match(r.stderr, /datatype|internal/i);
  }
  assert.is((await svc('executions', 'list', '--status', 'done')).code, 2);
});

test('usage errors in every family exit 2 before anything runs', async () => {
  const cases: string[][] = [
    ['settings', 'set', 'email', 'smtp_port', '0'],
    ['settings', 'set', 'email', 'contact_email', 'not-an-address'],
    ['credentials', 'set', 'no_such_key'],
    ['dive', 'arxiv', 'x', '--max', '-5'],
    ['sweep', 'x', '--sources', 'arxiv', '--to', '2020-01-01', '--from', '2021-01-01'],
    ['executions', 'show', 'abc'],
    ['routine', 'coverage', '1', '--limit', '0'],
    ['routine', 'add', '--name', 'n', '--schedule', '@daily', '--query', 'q', '--sources', 'microsoft_academic'],
    ['config', 'list', '--type', 'nope'],
    ['export', 'references', '--exec', '0'],
    ['library', 'list', '--limit', '1000'],
    ['library', 'show', 'not-an-id'],
    ['serve', '--port', '70000'],
  ];
  for (const args of cases) {
    const r = await svc(...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.stdout, '', `${args.join(' ')}: nothing on stdout`);
  }
  assert.is(JSON.parse((await svc('--json', 'executions', 'list')).stdout).total, 0, 'no refusal started a run');
});

test('a failed run exits 1: dive, sweep and routine run', async () => {
  assert.is((await svc('dive', 'arxiv', 'x')).code, 1);
  assert.is((await svc('sweep', 'x', '--sources', 'arxiv')).code, 1);
  assert.is((await svc('routine', 'add', '--name', 'offline', '--schedule', '@daily', '--query', 'x', '--sources', 'arxiv')).code, 0);
  const run = await svc('--json', 'routine', 'run', '1');
  assert.is(run.code, 1, run.stderr);
  assert.is(JSON.parse(run.stdout).status, 'failed');
});

test('Ctrl-C or Escape at a prompt maps to 130', async () => {
  const cancelled = Symbol('clack:cancel');
  const prompter: Prompter = { text: async () => cancelled, multiselect: async () => cancelled, confirm: async () => cancelled, note: () => {}, refuse: () => {} };
  const ctx = createContext({ env: dirs.env });
  try {
    const err = await askRoutine(ctx, prompter).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.is(exitCodeFor(err), EXIT.interrupted);
  } finally {
    await ctx.close();
  }
});

test('svc(1) and every command page document the exit codes', () => {
  // The pages of wave 1; pages added later carry their own EXIT STATUS (their tests check them).
  for (const page of ['svc.1', 'svc-search.1', 'svc-routine.1', 'svc-library.1']) {
    const text = fs.readFileSync(path.join(ROOT, 'man', page), 'utf8');
    const section = text.split(/^\.SH "?EXIT STATUS"?$/m)[1]?.split(/^\.SH /m)[0];
    assert.ok(section, `${page} has EXIT STATUS`);
    for (const code of ['0', '1', '2', '130']) assert.match(section!, new RegExp(`^\\.B ${code}$`, 'm'), `${page}: exit ${code}`);
  }
});

test.run();
