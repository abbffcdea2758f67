import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './_setup.js';
import { startAnswerServer, type AnswerServer } from './_answers.js';

let s: AnswerServer;
let env: Record<string, string | undefined>;
const UUID = '11111111-2222-4333-8444-555555555555';

test.before(async () => {
  s = await startAnswerServer();
  env = s.t.dirs.env;
});
test.after(() => s.close());

const previewArgs = () => ['answer', 'preview', s.projectId, '--select', `${s.files.text!.file_id}:1`, '--instruction', 'What helps memory?', '--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-test'];

test('preview --json prints the server preview: one document with the request hash', async () => {
  const r = await runCli(['--json', ...previewArgs()], { env });
  assert.is(r.code, 0, r.stderr);
  const p = JSON.parse(r.stdout);
  assert.match(p.request_sha256, /^[0-9a-f]{64}$/);
  assert.is(p.payload.sources[0].source_id, 'S01');
  assert.is(p.payload.sources[0].version_id, s.files.text!.version_id, 'the pinned version is used without @version');
  assert.is(p.payload.instruction, 'What helps memory?');
});

test('preview for a person names sources, pages, byte counts and hashes, and how to send', async () => {
  const r = await runCli([...previewArgs(), '--select', `${s.files.text!.file_id}@${s.files.text!.version_id}:1:0-5`], { env });
  assert.is(r.code, 0, r.stderr);
  for (const part of ['S01', 'S02', 'notes.txt', 'whole page', 'codepoints [0, 5)', 'bytes', 'Request sha256:', 'System prompt:', 'User prompt:', 'svc answer send']) {
    assert.ok(r.stdout.includes(part), `${part} in\n${r.stdout}`);
  }
  assert.ok(r.stdout.includes('Sleep helps memory consolidation'), 'the source text is shown');
});

test('preview refusals from the server keep their exit codes', async () => {
  const r = await runCli(['--json', ...previewArgs(), '--select', `${s.files.text!.file_id}:1:5-100000`], { env });
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.ok(JSON.parse(r.stdout).error);
  const stale = await runCli(['--json', ...previewArgs(), '--revision', '999'], { env });
  assert.is(stale.code, 4, stale.stdout);
});

test('usage errors exit 2 before any server call', async () => {
  const noServer = { ...env, SVC_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nosrv-')) };
  const cases: string[][] = [
    ['answer', 'send', s.projectId, UUID, '--sha', 'abc', '--yes'],
    ['answer', 'send', s.projectId, UUID, '--sha', 'a'.repeat(64)],
    ['answer', 'send', 'not-a-uuid', UUID, '--sha', 'a'.repeat(64), '--yes'],
    ['answer', 'preview', s.projectId, '--select', 'nope', '--instruction', 'x', '--runtime', 'api_key', '--provider', 'openai'],
    ['answer', 'preview', s.projectId, '--select', `${UUID}:1:5-5`, '--instruction', 'x', '--runtime', 'api_key', '--provider', 'openai'],
    ['answer', 'preview', s.projectId, '--select', `${UUID}:1`, '--instruction', 'x', '--runtime', 'web', '--provider', 'openai'],
    ['answer', 'export', s.projectId, UUID, '--format', 'pdf', '-o', 'x.pdf'],
    ['answer', 'list', s.projectId, '--limit', '51'],
    ['answer', 'show', s.projectId, 'nope'],
  ];
  for (const args of cases) {
    const r = await runCli(['--json', ...args], { env: noServer });
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.ok(JSON.parse(r.stdout).error, args.join(' '));
  }
  const send = await runCli(['answer', 'send', s.projectId, UUID, '--sha', 'a'.repeat(64)], { env: noServer });
  assert.match(send.stderr, /--yes/);
});

test('export refuses to overwrite an existing file without --force', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-answer-out-'));
  const out = path.join(dir, 'a.zip');
  fs.writeFileSync(out, 'keep');
  const r = await runCli(['--json', 'answer', 'export', s.projectId, UUID, '--format', 'zip', '-o', out], { env });
  assert.is(r.code, 2);
  assert.is(JSON.parse(r.stdout).error, 'output_exists');
  assert.is(fs.readFileSync(out, 'utf8'), 'keep');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('no server: exit 1 with the reason', async () => {
  const noServer = { ...env, SVC_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nosrv-')) };
  const r = await runCli(['--json', 'answer', 'list', s.projectId], { env: noServer });
  assert.is(r.code, 1);
  assert.is(JSON.parse(r.stdout).error, 'server_not_running');
});

test.run();
