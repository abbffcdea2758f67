import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliInProcess } from './_cli.js';
import { startAnswerServer, type AnswerServer } from './_answers.js';
import { startFakeModel, type FakeServer } from './_fake-model.js';
import { FrameTracker } from '../commands/answer/frames.js';
import { dropPreview } from '../src/answers/previews.js';

let s: AnswerServer;
let env: Record<string, string | undefined>;
const UUID = '11111111-2222-4333-8444-555555555555';

let model: FakeServer;

test.before(async () => {
  s = await startAnswerServer();
  env = s.t.dirs.env;
  model = await startFakeModel('openai');
  s.t.ctx.config.ai.urls.openai = model.url;
  s.t.ctx.credentials.set('openai_api_key', 'sk-openai-cli-secret-1234');
});
test.after(async () => {
  await model.close();
  await s.close();
});

const previewArgs = () => ['answer', 'preview', s.projectId, '--select', `${s.files.text!.file_id}:1`, '--instruction', 'What helps memory?', '--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-test'];

test('preview --json prints the server preview: one document with the request hash', async () => {
  const r = await runCliInProcess(['--json', ...previewArgs()], { env });
  assert.is(r.code, 0, r.stderr);
  const p = JSON.parse(r.stdout);
  assert.match(p.request_sha256, /^[0-9a-f]{64}$/);
  assert.is(p.payload.sources[0].source_id, 'S01');
  assert.is(p.payload.sources[0].version_id, s.files.text!.version_id, 'the pinned version is used without @version');
  assert.is(p.payload.instruction, 'What helps memory?');
});

test('preview for a person names sources, pages, byte counts and hashes, and how to send', async () => {
  const r = await runCliInProcess([...previewArgs(), '--select', `${s.files.text!.file_id}@${s.files.text!.version_id}:1:0-5`], { env });
  assert.is(r.code, 0, r.stderr);
  for (const part of ['S01', 'S02', 'notes.txt', 'whole page', 'codepoints [0, 5)', 'bytes', 'Request sha256:', 'System prompt:', 'User prompt:', 'svc answer send']) {
    assert.ok(r.stdout.includes(part), `${part} in\n${r.stdout}`);
  }
  assert.ok(r.stdout.includes('Sleep helps memory consolidation'), 'the source text is shown');
});

test('preview for a connection with no key stored says so at preview time, with the command that stores it', async () => {
  const args = ['answer', 'preview', s.projectId, '--select', `${s.files.text!.file_id}:1`, '--instruction', 'Q', '--runtime', 'api_key', '--provider', 'anthropic', '--model', 'claude-test'];
  // Four previews may be live at once: each is dropped once read, for the tests that follow.
  const shown = async (argv: string[]) => {
    const r = await runCliInProcess(argv, { env });
    assert.is(r.code, 0, r.stderr);
    dropPreview(s.t.ctx, /"preview_id": "([^"]+)"|^Preview (\S+)/m.exec(r.stdout)!.slice(1).find(Boolean)!);
    return r.stdout;
  };
  assert.match(await shown(args), /\nThis connection cannot run here now: No Anthropic key is stored; add it with `svc credentials set anthropic_api_key`\. Until then svc answer send is refused\.\n\nTo send exactly this: svc answer send /);
  const json = JSON.parse(await shown(['--json', ...args]));
  assert.equal(json.connection, { available: false, reason: 'No Anthropic key is stored; add it with `svc credentials set anthropic_api_key`.' });
  assert.not.match(await shown(previewArgs()), /cannot run here now/, 'nothing said when the key is stored');
});

test('preview refusals from the server keep their exit codes', async () => {
  const r = await runCliInProcess(['--json', ...previewArgs(), '--select', `${s.files.text!.file_id}:1:5-100000`], { env });
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.ok(JSON.parse(r.stdout).error);
  const stale = await runCliInProcess(['--json', ...previewArgs(), '--revision', '999'], { env });
  assert.is(stale.code, 4, stale.stdout);
  assert.match(JSON.parse(stale.stdout).message, /it is at revision \d+ now, not the --revision given/);
});

test('usage errors exit 2 before any server call', async () => {
  const noServer = { ...env, SVC_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nosrv-')) };
  const cases: string[][] = [
    ['answer', 'send', s.projectId, UUID, '--sha', 'abc', '--yes'],
    ['answer', 'send', s.projectId, UUID, '--sha', 'a'.repeat(64)],
    ['answer', 'send', 'two\nlines', UUID, '--sha', 'a'.repeat(64), '--yes'],
    ['answer', 'preview', s.projectId, '--select', 'nope', '--instruction', 'x', '--runtime', 'api_key', '--provider', 'openai'],
    ['answer', 'preview', s.projectId, '--select', `${UUID}:1:5-5`, '--instruction', 'x', '--runtime', 'api_key', '--provider', 'openai'],
    ['answer', 'preview', s.projectId, '--select', `${UUID}:1`, '--instruction', 'x', '--runtime', 'web', '--provider', 'openai'],
    ['answer', 'export', s.projectId, UUID, '--format', 'pdf', '-o', 'x.pdf'],
    ['answer', 'list', s.projectId, '--limit', '51'],
    ['answer', 'show', s.projectId, 'nope'],
  ];
  for (const args of cases) {
    const r = await runCliInProcess(['--json', ...args], { env: noServer });
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.ok(JSON.parse(r.stdout).error, args.join(' '));
  }
  const send = await runCliInProcess(['answer', 'send', s.projectId, UUID, '--sha', 'a'.repeat(64)], { env: noServer });
  assert.match(send.stderr, /--yes/);
});

test('export refuses to overwrite an existing file without --force', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-answer-out-'));
  const out = path.join(dir, 'a.zip');
  fs.writeFileSync(out, 'keep');
  const r = await runCliInProcess(['--json', 'answer', 'export', s.projectId, UUID, '--format', 'zip', '-o', out], { env });
  assert.is(r.code, 2);
  assert.is(JSON.parse(r.stdout).error, 'output_exists');
  assert.is(fs.readFileSync(out, 'utf8'), 'keep');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('export refuses a link or a missing folder before it asks the server for the answer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-answer-out-'));
  try {
    const noServer = { ...env, SVC_DATA_DIR: path.join(dir, 'data') };
    const link = path.join(dir, 'link.zip');
    fs.symlinkSync(path.join(dir, 'nowhere.zip'), link);
    for (const out of [link, path.join(dir, 'no', 'such', 'a.zip')]) {
      // No server runs for noServer: a refusal here was made before any connection.
      const r = await runCliInProcess(['--json', 'answer', 'export', s.projectId, UUID, '--format', 'zip', '-o', out, '--force'], { env: noServer });
      assert.is(r.code, 2, r.stdout + r.stderr);
      assert.is(JSON.parse(r.stdout).error, 'output_unwritable');
    }
    assert.not.ok(fs.existsSync(path.join(dir, 'nowhere.zip')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('end to end: preview, send (which follows the run), list, show, export ZIP and HTML; a failed answer exits 1', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-answer-e2e-'));
  try {
    const p = JSON.parse((await runCliInProcess(['--json', ...previewArgs()], { env })).stdout);
    const sent = await runCliInProcess(['--json', 'answer', 'send', s.projectId, p.preview_id, '--sha', p.request_sha256, '--yes'], { env });
    assert.is(sent.code, 0, sent.stderr);
    const answer = JSON.parse(sent.stdout);
    assert.is(answer.state, 'succeeded');
    assert.is(answer.output.validated, true);
    assert.is(answer.output.result.sections[0].items[0].citations[0].source_id, 'S01');
    assert.is(model.requests.length, 1);
    assert.not.ok(sent.stdout.includes('sk-openai-cli-secret'), 'no key in the answer');

    const listed = JSON.parse((await runCliInProcess(['--json', 'answer', 'list', s.projectId], { env })).stdout);
    assert.ok(listed.answers.some((a: any) => a.answer_id === answer.answer_id));
    // The project may be named any way `svc evidence list` prints it: its NAME or its ID number.
    for (const ref of ['Answers', '1']) {
      const byRef = await runCliInProcess(['--json', 'answer', 'list', ref], { env });
      assert.is(byRef.code, 0, byRef.stderr);
      assert.equal(JSON.parse(byRef.stdout).answers.map((a: any) => a.answer_id), listed.answers.map((a: any) => a.answer_id));
    }
    const unknown = await runCliInProcess(['answer', 'list', 'No such project'], { env });
    assert.is(unknown.code, 3, unknown.stderr);
    const shown = await runCliInProcess(['answer', 'show', s.projectId, answer.answer_id], { env });
    assert.is(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /succeeded/);

    const zip = path.join(dir, 'a.zip');
    const z = JSON.parse((await runCliInProcess(['--json', 'answer', 'export', s.projectId, answer.answer_id, '--format', 'zip', '-o', zip], { env })).stdout);
    assert.is(z.byte_size, fs.statSync(zip).size);
    assert.is(fs.statSync(zip).mode & 0o777, 0o600);
    const html = path.join(dir, 'a.html');
    const h = await runCliInProcess(['answer', 'export', s.projectId, answer.answer_id, '--format', 'html', '-o', html], { env });
    assert.is(h.code, 0, h.stderr);
    assert.match(fs.readFileSync(html, 'utf8'), /^<!DOCTYPE html>/i);

    const wrongSha = await runCliInProcess(['answer', 'send', s.projectId, p.preview_id, '--sha', 'b'.repeat(64), '--yes'], { env });
    assert.is(wrongSha.code, 4);
    assert.match(wrongSha.stderr, /--sha is not the request hash of this preview; copy the `svc answer send` line/);

    model.behaviour = 'bad_citation';
    const q = JSON.parse((await runCliInProcess(['--json', ...previewArgs(), '--instruction', 'again'], { env })).stdout);
    const failed = await runCliInProcess(['--json', 'answer', 'send', s.projectId, q.preview_id, '--sha', q.request_sha256, '--yes'], { env });
    assert.is(failed.code, 1, failed.stderr);
    assert.is(JSON.parse(failed.stdout).state, 'failed');

    // --no-watch only admits; nobody following within the attach window cancels it.
    model.behaviour = 'valid';
    const r = JSON.parse((await runCliInProcess(['--json', ...previewArgs(), '--instruction', 'later'], { env })).stdout);
    const admitted = await runCliInProcess(['--json', 'answer', 'send', s.projectId, r.preview_id, '--sha', r.request_sha256, '--yes', '--no-watch'], { env });
    assert.is(admitted.code, 0, admitted.stderr);
    assert.is(JSON.parse(admitted.stdout).state, 'admitted');
    const watched = await runCliInProcess(['--json', 'answer', 'watch', s.projectId, JSON.parse(admitted.stdout).answer_id], { env });
    assert.is(watched.code, 0, watched.stderr);
    assert.is(JSON.parse(watched.stdout).state, 'succeeded');
  } finally {
    model.behaviour = 'valid';
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('send follows the run with each frame\'s state on stderr; show names each cited source and its quote', async () => {
  const p = JSON.parse((await runCliInProcess(['--json', ...previewArgs(), '--instruction', 'frames please'], { env })).stdout);
  const sent = await runCliInProcess(['answer', 'send', s.projectId, p.preview_id, '--sha', p.request_sha256, '--yes'], { env });
  assert.is(sent.code, 0, sent.stderr);
  assert.match(sent.stderr, /^#1 snapshot: admitted/m);
  assert.match(sent.stderr, /^#\d+ progress: running · request_sent$/m);
  assert.match(sent.stderr, /^#\d+ partial: running · \d+ characters of model text so far$/m);
  assert.match(sent.stderr, /^#\d+ report: running · tokens in 321, out 45/m);
  assert.match(sent.stderr, /^#\d+ terminal: succeeded$/m);
  const id = /^Answer ([0-9a-f-]{36}): succeeded$/m.exec(sent.stdout)![1]!;
  const late = await runCliInProcess(['answer', 'watch', s.projectId, id], { env });
  assert.is(late.code, 4);
  assert.match(late.stderr, /`svc answer show PROJECT ANSWER` prints an answer that has ended/);
  const shown = await runCliInProcess(['answer', 'show', s.projectId, id], { env });
  assert.is(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^  S01  notes\.txt: text logical page 1 of 1, whole page$/m);
  assert.match(shown.stdout, /^    cites S01 \[0, 12\) = page 1 codepoints \[0, 12\) of notes\.txt: “Alpha beta g”$/m);
  assert.match(shown.stdout, /frames please/);
  assert.match(shown.stdout, /model gpt-test-0001 \(as reported\)/);
  // Several answers by now: a page of one names the whole next-page command, keeping its size.
  const paged = await runCliInProcess(['answer', 'list', s.projectId, '--limit', '1'], { env });
  assert.match(paged.stderr, new RegExp(`^more: svc answer list ${s.projectId} --limit 1 --through \\d+ --after \\d+$`, 'm'));
});

test('show places a citation of a passage on its page, in the offsets `svc evidence read` prints', async () => {
  // The passage starts at codepoint 18 ("Sleep ..."); the model cites the first 12 codepoints of it.
  const args = ['--json', 'answer', 'preview', s.projectId, '--select', `${s.files.text!.file_id}:1:18-60`, '--instruction', 'passage only', '--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-test'];
  const p = JSON.parse((await runCliInProcess(args, { env })).stdout);
  assert.is(p.payload.sources.length, 1);
  const sent = await runCliInProcess(['answer', 'send', s.projectId, p.preview_id, '--sha', p.request_sha256, '--yes'], { env });
  assert.is(sent.code, 0, sent.stderr);
  assert.match(sent.stdout, /^    cites S01 \[0, 12\) = page 1 codepoints \[18, 30\) of notes\.txt: “Sleep helps ”$/m);
});

test('frames of another answer, runtime or an old sequence are rejected', () => {
  const expected = { answer_id: UUID, project_id: s.projectId, vault_id: s.vaultId, runtime_id: s.runtimeId };
  const frame = (over: Record<string, unknown> = {}) => ({ sequence: 1, type: 'progress', ...expected, request_sha256: 'a'.repeat(64), data: { state: 'running', stage: 'started' }, ...over });
  const t = new FrameTracker(expected);
  assert.is(t.take('progress', frame()), '#1 progress: running · started');
  assert.is(t.statusLine(), 'running (started) · 0 characters', 'what a terminal redraws');
  assert.throws(() => new FrameTracker(expected).take('progress', frame({ runtime_id: '22222222-2222-4333-8444-555555555555' })), (e: any) => e.reason === 'stale_frame');
  assert.throws(() => new FrameTracker(expected).take('progress', frame({ answer_id: '22222222-2222-4333-8444-555555555555' })), (e: any) => e.reason === 'stale_frame');
  assert.throws(() => t.take('progress', frame()), (e: any) => e.reason === 'stale_frame', 'a repeated sequence');
  assert.throws(() => t.take('progress', frame({ sequence: 2, request_sha256: 'b'.repeat(64) })), (e: any) => e.reason === 'stale_frame', 'another request');
  assert.is(t.take('terminal', frame({ sequence: 3, data: { state: 'failed', error: { reason: 'output_invalid', message: 'bad' } } })), '#3 terminal: failed · output_invalid: bad');
  assert.ok(t.ended);
});

test('--select takes the Library ID too; an API runtime without --model asks for the provider default, shown in the preview', async () => {
  const id = String(s.files.paper!.id);
  const r = await runCliInProcess(['answer', 'preview', s.projectId, '--select', `${id}:1`, '--instruction', 'Q', '--runtime', 'api_key', '--provider', 'openai'], { env });
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /api_key openai model gpt-4o-mini/);
  assert.ok(r.stdout.includes(`paper.pdf  ${s.files.paper!.file_id} version ${s.files.paper!.version_id}`), r.stdout);
});

test('connection flags are checked before the server, naming the flag and what is allowed', async () => {
  const noServer = { ...env, SVC_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nosrv-')) };
  const base = ['answer', 'preview', s.projectId, '--select', `${UUID}:1`, '--instruction', 'Q'];
  const cases: [string[], RegExp][] = [
    [['--runtime', 'agent_cli', '--provider', 'claude'], /--runtime agent_cli takes --provider agent_code/],
    [['--runtime', 'api_key', '--provider', 'nope'], /--provider for --runtime api_key must be one of openai, /],
    [['--runtime', 'api_key', '--provider', 'openai', '--effort', 'high'], /--effort is for --runtime agent_cli only/],
    [['--runtime', 'agent_cli', '--provider', 'agent_code', '--effort', 'huge'], /--effort must be one of low, /],
  ];
  for (const [flags, message] of cases) {
    const r = await runCliInProcess([...base, ...flags], { env: noServer });
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.not.match(r.stderr, /choices\./);
  }
});

test('an image-only page or a note of an unselected file refuses the preview naming the file or note and what to do', async () => {
  const page3 = await runCliInProcess([...previewArgs().slice(0, 3), '--select', `${s.files.paper!.file_id}:3`, ...previewArgs().slice(5)], { env });
  assert.is(page3.code, 4, page3.stderr);
  assert.match(page3.stderr, /Page 3 of paper\.pdf has no extractable text .*Leave that page out of the selection\./);
  const noteId = await s.note(s.files.paper!, 'on the paper');
  const note = await runCliInProcess([...previewArgs(), '--note', String(noteId)], { env });
  assert.is(note.code, 4, note.stderr);
  assert.ok(note.stderr.includes(`Note ${noteId} is on file ${s.files.paper!.file_id}, which is not selected`), note.stderr);
});

test('a selected passage note with an empty body says how to give it one', async () => {
  const added = await runCliInProcess(['--json', 'evidence', 'note', 'add', s.projectId, s.files.text!.file_id, '--start', '0', '--end', '5'], { env });
  assert.is(added.code, 0, added.stderr);
  const id = JSON.parse(added.stdout).note.note_id;
  const r = await runCliInProcess([...previewArgs(), '--note', String(id)], { env });
  assert.is(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(`give it one with \`svc evidence note edit ${s.projectId} ${id} --body TEXT\`, or leave out --note ${id}`), r.stderr);
});

test('a project with no answers says how to prepare one', async () => {
  const empty = (await s.project('No answers')).project_id;
  const r = await runCliInProcess(['answer', 'list', empty], { env });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^No answers yet; \`svc answer preview ${empty} --select FILE:PAGE`, 'm'));
  const j = JSON.parse((await runCliInProcess(['--json', 'answer', 'list', empty], { env })).stdout);
  assert.equal(j.answers, []);
});

test('no server: exit 1 with the reason', async () => {
  const noServer = { ...env, SVC_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nosrv-')) };
  const r = await runCliInProcess(['--json', 'answer', 'list', s.projectId], { env: noServer });
  assert.is(r.code, 1);
  assert.is(JSON.parse(r.stdout).error, 'server_not_running');
});

test.run();
