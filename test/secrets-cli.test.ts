/**
 * Security audit, CLI: secrets go in through stdin (never argv) and come out
 * of no command's output, --json included. The one exception is asked for by
 * name: `svc routine target secret` prints a webhook secret for its receiver.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { tempDirs, type TempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';

const SMTP = 'smtp-PASS-audit-41f0e2';
const OPENAI = 'sk-openai-audit-8b7a6c5d';
let dirs: TempDirs;
test.before(() => {
  dirs = tempDirs();
});
test.after(() => dirs.cleanup());

const cli = (args: string[], stdin?: string) => runCliInProcess(args, { env: dirs.env, stdin });

test('secrets stored through stdin appear in no output of the commands that touch them', async () => {
  const outputs: string[] = [];
  const keep = (r: { code: number; stdout: string; stderr: string }, what: string) => {
    outputs.push(`${what}\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  assert.is(keep(await cli(['credentials', 'set', 'smtp_password'], `${SMTP}\n`), 'set smtp').code, 0);
  assert.is(keep(await cli(['--json', 'credentials', 'set', 'openai_api_key'], OPENAI), 'set openai').code, 0);
  const routine = keep(await cli(['--json', 'routine', 'add', '--name', 'watch', '--sources', 'crossref', '--query', 'reefs', '--schedule', '0 6 * * 1']), 'routine add');
  assert.is(routine.code, 0, routine.stderr);
  const routineId = JSON.parse(routine.stdout).id as number;
  const added = keep(await cli(['--json', 'routine', 'target', 'add', String(routineId), '--channel', 'webhook', '--target', '-'], 'https://hooks.example.org/in\n'), 'target add');
  assert.is(added.code, 0, added.stderr);
  const targetId = JSON.parse(added.stdout).id as number;
  for (const args of [
    ['credentials', 'list'],
    ['--json', 'credentials', 'list'],
    ['--json', 'settings', 'get', 'email'],
    ['--json', 'cloud', 'status'],
    ['routine', 'target', 'list', String(routineId)],
    ['--json', 'routine', 'target', 'list', String(routineId)],
    ['--json', 'routine', 'show', String(routineId)],
  ]) {
    const r = keep(await cli(args), args.join(' '));
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  const backup = keep(await cli(['--json', 'backup']), 'backup');
  assert.is(backup.code, 0, backup.stderr);
  const bundle = JSON.parse(backup.stdout).path as string;
  const secret = await cli(['--json', 'routine', 'target', 'secret', String(routineId), String(targetId)]);
  assert.is(secret.code, 0, secret.stderr);
  const webhookSecret = JSON.parse(secret.stdout).secret as string;
  assert.match(webhookSecret, /^[0-9a-f]{64}$/);
  const all = outputs.join('\n');
  for (const [name, value] of [['smtp password', SMTP], ['openai key', OPENAI], ['webhook secret', webhookSecret]]) {
    assert.not.ok(all.includes(value!), `${name} appeared in an output`);
  }
  // The bundle the backup command wrote holds none of them either.
  const bytes = fs.readFileSync(bundle);
  for (const value of [SMTP, OPENAI, webhookSecret]) assert.is(bytes.indexOf(value), -1, 'a secret is in the bundle');
});

test.run();
