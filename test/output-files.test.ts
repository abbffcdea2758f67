/**
 * Every command that writes a file a person names (-o) writes it the same way:
 * 0600, never through a symbolic link, never over an existing file without
 * --force (a conversation export: never at all), and a missing folder is one
 * plain sentence, not an ENOENT.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { makeRecord, seed } from './_corpus.js';
import { writeFakeAgent } from './_assistant.js';

const dirs = tempDirs();
let env: Record<string, string>;
const svc = (...args: string[]) => runCliInProcess(args, { env });
let chatId = '';

test.before(async () => {
  env = { ...dirs.env, SVC_AGENT_CLI: writeFakeAgent(path.join(dirs.root, 'agent')), PATH: process.env.PATH ?? '' };
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  seed(ctx, [makeRecord(1, { title: 'Coral reef carbon' }), makeRecord(2, { title: 'Soil carbon' })]);
  await ctx.close();
  for (const args of [
    ['config', 'add', '--name', 'saved', '--type', 'sweep', '--parameters', '{"repositories":["crossref"],"query":"ecology"}'],
    ['profile', 'add', 'Alice Example'],
  ]) {
    const r = await svc(...args);
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  const chat = await svc('--json', 'chat', 'new', '--runtime', 'agent_cli', '--effort', 'low', '--title', 'to export');
  assert.is(chat.code, 0, chat.stderr);
  chatId = String(JSON.parse(chat.stdout).session.id);
});
test.after(() => dirs.cleanup());

const COMMANDS: { name: string; args: (out: string) => string[]; force: boolean }[] = [
  { name: 'export references', args: (out) => ['export', 'references', '--docs', '1,2', '-o', out], force: true },
  { name: 'config export', args: (out) => ['config', 'export', '1', '-o', out], force: true },
  { name: 'explore --export', args: (out) => ['explore', 'carbon', '--export', 'ris', '--output', out], force: true },
  { name: 'profile export', args: (out) => ['profile', 'export', '1', '-o', out], force: true },
  // The man page promises a conversation export never replaces a file: no --force.
  { name: 'chat export', args: (out) => ['chat', 'export', chatId, '-o', out], force: false },
];

for (const c of COMMANDS) {
  test(`${c.name} -o: a 0600 file; an existing one is kept${c.force ? ' unless --force' : ''}`, async () => {
    const dir = fs.mkdtempSync(path.join(dirs.root, 'out-'));
    const out = path.join(dir, 'written.txt');
    const first = await svc(...c.args(out));
    assert.is(first.code, 0, first.stderr);
    assert.is(fs.statSync(out).mode & 0o777, 0o600);
    const body = fs.readFileSync(out, 'utf8');
    assert.ok(body.length > 10, body);
    fs.writeFileSync(out, 'keep', { mode: 0o644 });
    const again = await svc('--json', ...c.args(out));
    assert.is(again.code, 2, again.stderr);
    assert.is(JSON.parse(again.stdout).error, 'output_exists');
    assert.match(JSON.parse(again.stdout).message, c.force ? /add --force to replace it/ : /name a new file/);
    assert.is(fs.readFileSync(out, 'utf8'), 'keep');
    if (!c.force) {
      assert.is((await svc(...c.args(out), '--force')).code, 2, 'no --force here');
      return;
    }
    const forced = await svc(...c.args(out), '--force');
    assert.is(forced.code, 0, forced.stderr);
    // The same export again (an export time may differ), not the kept text.
    const replaced = fs.readFileSync(out, 'utf8');
    assert.is(replaced.replace(/"exported_at_utc": "[^"]+"/, ''), body.replace(/"exported_at_utc": "[^"]+"/, ''));
    assert.is(fs.statSync(out).mode & 0o777, 0o600, 'a replaced file is 0600 too');
    assert.equal(fs.readdirSync(dir), ['written.txt'], 'no temporary file left');
  });

  test(`${c.name} -o: never through a symbolic link, to a file or to nothing`, async () => {
    const dir = fs.mkdtempSync(path.join(dirs.root, 'link-'));
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'victim');
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync(victim, link);
    for (const extra of c.force ? [[], ['--force']] : [[]]) {
      const through = await svc('--json', ...c.args(link), ...extra);
      assert.is(fs.readFileSync(victim, 'utf8'), 'victim', `nothing written through the link ${extra.join(' ')}`);
      assert.ok(fs.lstatSync(link).isSymbolicLink());
      assert.is(through.code, 2, through.stderr);
      assert.match(JSON.parse(through.stdout).message, /is a symbolic link; svc does not write through links/);
    }
    const dangling = path.join(dir, 'dangling.txt');
    fs.symlinkSync(path.join(dir, 'nowhere.txt'), dangling);
    const none = await svc(...c.args(dangling));
    assert.is(none.code, 2, none.stderr);
    assert.not.ok(fs.existsSync(path.join(dir, 'nowhere.txt')), 'nothing written through the link');
    assert.ok(fs.lstatSync(dangling).isSymbolicLink(), 'the link itself is left as it was');
  });

  test(`${c.name} -o: a missing folder is one plain sentence, and no folder is made`, async () => {
    const dir = fs.mkdtempSync(path.join(dirs.root, 'nofolder-'));
    const r = await svc(...c.args(path.join(dir, 'no', 'such', 'x.txt')));
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /its folder does not exist; create the folder first/);
    assert.not.match(r.stderr, /ENOENT/);
    assert.not.ok(fs.existsSync(path.join(dir, 'no')));
  });
}

test('-o on a disk without hard links (FAT, exFAT, some shares): the file is still written 0600, nothing left beside it, and an existing one still kept', async () => {
  const { writeOutputFile } = await import('../commands/lib/output-file.js');
  const dir = fs.mkdtempSync(path.join(dirs.root, 'nolinks-'));
  const link = fs.linkSync;
  fs.linkSync = (() => {
    throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
  }) as typeof fs.linkSync;
  try {
    const out = path.join(dir, 'refs.txt');
    assert.is(writeOutputFile(out, 'the references\n', { existsHint: 'add --force to replace it' }), out);
    assert.is(fs.readFileSync(out, 'utf8'), 'the references\n');
    assert.is(fs.statSync(out).mode & 0o777, 0o600);
    assert.equal(fs.readdirSync(dir), ['refs.txt'], 'no temporary file is left');
    assert.throws(() => writeOutputFile(out, 'other', { existsHint: 'add --force to replace it' }), /already exists/);
    assert.is(fs.readFileSync(out, 'utf8'), 'the references\n');
  } finally {
    fs.linkSync = link;
  }
});

test('an existing output file is one refusal everywhere: backup -o says output_exists with exit 2, as the other -o files do, and keeps the file', async () => {
  const dir = fs.mkdtempSync(path.join(dirs.root, 'bundle-'));
  const out = path.join(dir, 'svc.tar');
  fs.writeFileSync(out, 'keep');
  const r = await svc('--json', 'backup', '-o', out);
  assert.is(r.code, 2, r.stdout);
  assert.is(JSON.parse(r.stdout).error, 'output_exists');
  assert.match(JSON.parse(r.stdout).message, /already exists; choose another name/);
  assert.is(fs.readFileSync(out, 'utf8'), 'keep');
  assert.equal(fs.readdirSync(dir), ['svc.tar'], 'nothing written beside it');
  // A link there is refused the same way as for the other commands, not written through.
  fs.symlinkSync(path.join(dir, 'elsewhere.tar'), path.join(dir, 'link.tar'));
  const link = await svc('--json', 'backup', '-o', path.join(dir, 'link.tar'));
  assert.equal([link.code, JSON.parse(link.stdout).error], [2, 'output_unwritable']);
  assert.not.ok(fs.existsSync(path.join(dir, 'elsewhere.tar')));
});

test.run();
