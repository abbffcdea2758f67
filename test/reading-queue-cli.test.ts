/**
 * `svc queue remove` looks the saved paper up before it asks: an unknown or
 * unsaved paper fails at once (exit 3, one line), and the question names the
 * paper's title as the other delete confirmations name what goes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { tempDirs, type TempDirs } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { runCliCaptured } from './_cli.js';

let dirs: TempDirs;
let ids: number[];
const svc = (...argv: string[]) => runCliCaptured(argv, dirs.env);

test.before(async () => {
  dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  ids = seed(ctx, [makeRecord(1, { title: 'Coral reef recovery' }), makeRecord(2, { title: 'Soil carbon' })]);
  await ctx.close();
});
test.after(() => dirs.cleanup());

test('queue remove: an unsaved paper exits 3 before any question (it asked "Add --yes" first)', async () => {
  const r = await svc('queue', 'remove', String(ids[1]));
  assert.is(r.code, 3, r.stderr);
  assert.is(r.stderr, `svc: Document ${ids[1]} is not in the reading queue; \`svc queue list\` shows the saved papers and \`svc queue add\` saves one.`);
  assert.is(r.stdout, '');
  const unknown = await svc('queue', 'remove', '999999');
  assert.is(unknown.code, 3);
  assert.is(unknown.stderr, 'svc: No document 999999; `svc explore` lists the papers in the corpus.');
});

test('queue remove: the question names the saved paper by its title', async () => {
  assert.is((await svc('queue', 'add', String(ids[0]))).code, 0);
  const r = await svc('queue', 'remove', String(ids[0]));
  assert.is(r.code, 2, 'no terminal, no --yes');
  assert.is(r.stderr, `svc: Remove ${ids[0]} (Coral reef recovery) from the reading queue? Add --yes to confirm when not on a terminal.`);
  const done = await svc('queue', 'remove', String(ids[0]), '--yes');
  assert.is(done.code, 0, done.stderr);
});

test('svc queue alone lists the queue, as svc queue list does; a mistyped word is refused naming the commands', async () => {
  assert.is((await svc('queue', 'add', String(ids[1]))).code, 0);
  const alone = await svc('queue');
  const list = await svc('queue', 'list');
  assert.equal([alone.code, alone.stdout, alone.stderr], [0, list.stdout, list.stderr]);
  assert.match(alone.stdout, /Soil carbon/);
  const unread = await svc('--json', 'queue', '--status', 'unread');
  assert.is(JSON.parse(unread.stdout).status, 'unread', 'the list flags work without the word list');
  const typo = await svc('queue', 'lsit');
  assert.equal([typo.code, typo.stderr], [2, 'svc: "lsit" is not a queue command; one of list, add, read, unread, remove.']);
});

test.run();
