/**
 * What svc says on stderr around a command (a destructive command's question,
 * progress lines of a run, a next-step note) quotes stored text: a routine's
 * name or query set over HTTP or MCP, a profile's name. That text reaches the
 * terminal on one line and without what a terminal acts on, like the views on
 * stdout (cli-terminal-text.test.ts); svc's own drawing is left alone.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { askRoutine, type Prompter } from '../commands/routine/ask.js';
import { seededInstallation, type Installation } from './_admin.js';
import { runCliCaptured } from './_cli.js';
import { ROOT, waitFor } from './_setup.js';

/** ESC [31m (red), a bell, a right-to-left override and a line break: what a terminal would act on. */
const EVIL = 'x\u001b[31mred\u0007\u202e\nforged';
const LEAK = /[\u001b\u0007\u202e]/;

let inst: Installation;

test.before(async () => {
  inst = await seededInstallation();
});
test.after(async () => {
  await inst.close();
});

// A run asks the installation's crossref stub, never the real one.
const svc = (...argv: string[]) => runCliCaptured(argv, { ...inst.t.dirs.env, SVC_SOURCE_CROSSREF_URL: inst.stub.url });

/** `svc …` on a real terminal (util-linux `script` gives it a pty), answered "no" once `prompt` shows. */
async function onTerminal(argv: string[], prompt: string): Promise<string> {
  const quoted = [process.execPath, path.join(ROOT, 'bin', 'svc.js'), ...argv].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // A pty starts zero columns wide, where the prompt would wrap after every character.
  const child = spawn('script', ['-qec', `stty cols 200 rows 50; ${quoted}`, '/dev/null'], { env: { PATH: process.env.PATH, TERM: 'xterm', ...inst.t.dirs.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    await waitFor(() => out.includes(prompt), 20_000, `the question (${prompt})`).catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(out)}`); });
    child.stdin.write('n\r');
    await waitFor(() => out.includes('Nothing deleted.'), 10_000, 'the answer "no"');
  } finally {
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    child.stdin.end();
    await closed;
  }
  return out;
}

/** What a pty showed, with svc's (and the prompt library's) own drawing taken out: CSI sequences that do not follow the stored "x". */
const shownText = (out: string) => out.replace(/(?<!x)\u001b\[[0-9;?]*[A-Za-z]/g, '');

test('a destructive command asks on a terminal about a stored name or query on one line, without its escape sequences', async () => {
  const db = inst.t.ctx.db;
  const routineId = db.prepare('SELECT id FROM routines ORDER BY id LIMIT 1').pluck().get() as number;
  db.prepare('UPDATE routines SET name = ? WHERE id = ?').run(`weekly ${EVIL}`, routineId);
  const routine = shownText(await onTerminal(['routine', 'delete', String(routineId)], 'Delete routine'));
  assert.not.match(routine, LEAK, JSON.stringify(routine));
  assert.match(routine, /Delete routine \d+ \(weekly x\[31mred forged\)\?/);
  db.prepare('UPDATE executions SET query = ? WHERE id = ?').run(`ecology ${EVIL}`, inst.executionId);
  const execution = shownText(await onTerminal(['executions', 'delete', String(inst.executionId)], 'Delete execution'));
  assert.not.match(execution, LEAK, JSON.stringify(execution));
  assert.match(execution, /"ecology x\[31mred forged"\)\?/);
  assert.ok(db.prepare('SELECT 1 FROM routines WHERE id = ?').get(routineId), 'answered no: nothing deleted');
});

test('svc routine add asks about a person profile by its stored name on one line', async () => {
  const r = await inst.t.request('POST', '/api/profiles', { body: { name: `Ada ${EVIL}` } });
  assert.is(r.status, 201, r.text);
  const id = String(r.json().id);
  const asked: string[] = [];
  const texts = ['ada watch', id, '', '0 6 * * 1', '', ''];
  const prompter: Prompter = {
    async text(opts) {
      asked.push(opts.message);
      return texts.shift() ?? '';
    },
    async multiselect(opts) {
      asked.push(opts.message);
      return ['crossref'];
    },
    async confirm(opts) {
      asked.push(opts.message);
      return true;
    },
    note: () => {},
    refuse: () => {},
  };
  await askRoutine(inst.t.ctx, prompter).catch(() => undefined);
  const aboutAda = asked.filter((m) => m.includes('Ada'));
  assert.is(aboutAda.length >= 2, true, `the profile was offered and asked about:\n${asked.join('\n')}`);
  for (const m of aboutAda) {
    assert.not.match(m, LEAK, m);
    assert.not.match(m, /\n/, m);
  }
});

test('progress lines of a run (piped) quote a stored query on one line, without its escape sequences', async () => {
  const db = inst.t.ctx.db;
  const routineId = db.prepare('SELECT id FROM routines ORDER BY id LIMIT 1').pluck().get() as number;
  db.prepare(`UPDATE routines SET parameters_json = json_set(parameters_json, '$.query', ?) WHERE id = ?`).run(`ecology ${EVIL}`, routineId);
  const run = await svc('routine', 'run', String(routineId));
  assert.match(run.stderr, /ecology x\[31mred forged/, run.stderr);
  assert.not.match(run.stderr, LEAK, run.stderr);
  assert.not.match(run.stderr, /^forged/m, 'the query stays on its line');
});

test('a next-step note names a stored configuration name on one line', async () => {
  const name = `saved ${EVIL}`;
  const r = await inst.t.request('POST', '/api/configurations', { body: { name, config_type: 'dive', parameters: { repository: 'arxiv', query: 'graphs' } } });
  assert.is(r.status, 201, r.text);
  const added = await svc('config', 'add', '--name', name, '--type', 'dive', '--parameters', '{"repository":"arxiv","query":"graphs"}');
  assert.is(added.code, 0, added.stderr);
  assert.match(added.stderr, /also called "saved x\[31mred forged"/, added.stderr);
  assert.not.match(added.stderr, LEAK, added.stderr);
});

test.run();
