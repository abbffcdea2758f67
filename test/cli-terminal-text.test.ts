/**
 * Stored and upstream text never carries an escape sequence or a
 * bidirectional control to the terminal: paper titles and abstracts from
 * sources, names set over HTTP or MCP, source messages, delivery errors,
 * notes, answers and conversations. Each view family is run as the command
 * runs it (in process, stdout captured); --json stays exact.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Io } from '../commands/lib/io.js';
import { emit } from '../commands/lib/io.js';
import { answerText, previewText } from '../commands/answer/format.js';
import { notesText, pageText } from '../commands/evidence/format.js';
import * as assistantRepo from '../src/assistant/repo.js';
import { seededInstallation, type Installation } from './_admin.js';
import { runCliCaptured } from './_cli.js';
import { addTarget, deliveriesWhen, runRoutine } from './_delivery.js';

/** ESC [31m (red), a bell, and a right-to-left override: what a terminal would act on. */
const EVIL = 'x\u001b[31mred\u0007\u202e';
const LEAK = /[\u001b\u0007\u202e]/;

let inst: Installation;
let docId: number;

test.before(async () => {
  inst = await seededInstallation();
  docId = inst.t.ctx.db.prepare('SELECT id FROM documents ORDER BY id LIMIT 1').pluck().get() as number;
});
test.after(async () => {
  await inst.close();
});

const svc = (...argv: string[]) => runCliCaptured(argv, inst.t.dirs.env, { stdoutIsTTY: true });

const humanIo = (out: string[]): Io => ({ out: (t) => void out.push(t), write: (t) => void out.push(t), err: () => {}, readStdin: async () => '', stdoutIsTTY: true, stdinIsTTY: false, env: {}, json: false });

function clean(stdout: string, what: string): void {
  assert.not.match(stdout, LEAK, `${what}: no escape sequence, bell or bidirectional control reaches stdout:\n${JSON.stringify(stdout)}`);
}

test('svc executions show, log and report; svc why; svc lifecycle show: a title, query, error and source message from outside', async () => {
  const db = inst.t.ctx.db;
  db.prepare('UPDATE documents SET title = ?, abstract = ? WHERE id = ?').run(`Title ${EVIL}\nsecond line`, `Abstract ${EVIL}\nline two`, docId);
  db.prepare('UPDATE executions SET query = ?, error = ? WHERE id = ?').run(`ecology ${EVIL}`, `failed ${EVIL}\nforged line`, inst.executionId);
  db.prepare('UPDATE execution_sources SET message = ? WHERE execution_id = ?').run(`upstream ${EVIL}`, inst.executionId);
  const shown = await svc('executions', 'show', String(inst.executionId));
  assert.is(shown.code, 0, shown.stderr);
  clean(shown.stdout, 'executions show');
  assert.match(shown.stdout, /^ {2}failed x\[31mred forged line$/m, 'the error stays on its line');
  clean((await svc('executions', 'report', String(inst.executionId))).stdout, 'executions report');
  clean((await svc('executions', 'log', String(inst.executionId))).stdout, 'executions log');
  const why = await svc('why', String(docId));
  assert.is(why.code, 0, why.stderr);
  clean(why.stdout, 'why');
  assert.match(why.stdout, /^Title x\[31mred second line \(/m, 'the title stays on one line');
  const lifecycle = await svc('lifecycle', 'show', String(docId));
  assert.is(lifecycle.code, 0, lifecycle.stderr);
  clean(lifecycle.stdout, 'lifecycle show');
  assert.match(lifecycle.stdout, new RegExp(`^${docId} {2}Title x\\[31mred second line$`, 'm'));
  // --json stays exact: JSON escapes the controls a terminal would act on.
  const json = await svc('--json', 'executions', 'show', String(inst.executionId));
  assert.not.match(json.stdout, /[\u001b\u0007]/);
  assert.is(JSON.parse(json.stdout).error, `failed ${EVIL}\nforged line`);
});

test('svc explore --export to a terminal drops control characters; piped it stays exact', async () => {
  const db = inst.t.ctx.db;
  db.prepare('UPDATE documents SET title = ? WHERE id = ?').run(`Export ${EVIL}`, docId);
  clean((await svc('explore', '--export', 'bibtex')).stdout, 'explore --export on a terminal');
  clean((await svc('export', 'references', '--docs', String(docId), '--format', 'ris')).stdout, 'export references on a terminal');
  const piped = await runCliCaptured(['explore', '--export', 'bibtex'], inst.t.dirs.env);
  assert.is(piped.code, 0);
  const file = JSON.parse((await svc('--json', 'explore', '--export', 'bibtex')).stdout).text as string;
  assert.is(piped.stdout, file.replace(/\r?\n$/, ''), 'piped, the export is the file as written');
});

test('svc profile show and add: a name, alias and affiliation set over HTTP', async () => {
  const r = await inst.t.request('POST', '/api/profiles', { body: { name: `Ada ${EVIL}`, aliases: [`A. ${EVIL}`], affiliations: [`Lab ${EVIL}\nforged`] } });
  assert.is(r.status, 201, r.text);
  const shown = await svc('profile', 'show', String(r.json().id));
  assert.is(shown.code, 0, shown.stderr);
  clean(shown.stdout, 'profile show');
  assert.match(shown.stdout, /^ {2}affiliations: Lab x\[31mred forged$/m);
});

test('svc deliveries show: a delivery error quoting what a destination answered', async () => {
  const routineId = inst.t.ctx.db.prepare('SELECT id FROM routines ORDER BY id LIMIT 1').pluck().get() as number;
  const folder = fs.mkdtempSync(path.join(inst.t.dirs.root, 'out-'));
  await addTarget(inst.t, routineId, { channel: 'folder', target: folder });
  const run = await runRoutine(inst.t, routineId);
  const [delivery] = await deliveriesWhen(inst.t, run, (d) => d.state === 'delivered');
  inst.t.ctx.db.prepare('UPDATE deliveries SET last_error = ? WHERE id = ?').run(`HTTP 500 ${EVIL}\nforged`, delivery.id);
  inst.t.ctx.db.prepare('UPDATE delivery_attempts SET error = ? WHERE delivery_id = ?').run(`HTTP 500 ${EVIL}`, delivery.id);
  const shown = await svc('deliveries', 'show', String(delivery.id));
  assert.is(shown.code, 0, shown.stderr);
  clean(shown.stdout, 'deliveries show');
  clean((await svc('routine', 'show', String(routineId))).stdout, 'routine show (its last report)');
});

test('svc watchdog: routine names and reasons', async () => {
  inst.t.ctx.db.prepare('UPDATE routines SET name = ?').run(`weekly ${EVIL}`);
  const shown = await svc('watchdog');
  assert.is(shown.code, 0, shown.stderr);
  clean(shown.stdout, 'watchdog');
});

test('svc assistant show: a conversation title and messages', async () => {
  const choices = { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-4o-mini', effort: null };
  const id = (await inst.t.request('POST', '/api/assistant/sessions', { body: { choices, title: `Chat ${EVIL}` } })).json().session.id;
  assistantRepo.insertMessage(inst.t.ctx.db, { session_id: id, role: 'assistant', content: `Answer ${EVIL}\nsecond line`, at: new Date().toISOString() });
  const shown = await svc('assistant', 'show', String(id));
  assert.is(shown.code, 0, shown.stderr);
  clean(shown.stdout, 'assistant show');
  assert.match(shown.stdout, /^\[assistant\] Answer x\[31mred$/m, 'a message keeps its lines');
  assert.match(shown.stdout, /^second line$/m);
});

test('svc answer show and preview; svc evidence read and notes: sources, notes and model output', () => {
  const out: string[] = [];
  const source = { source_id: 'S1', filename: `paper ${EVIL}.pdf`, text: `Passage ${EVIL}\nline two`, kind: 'page', page: 1, start: 0, end: 10, source_sha256: 'a' };
  const answer = {
    answer_id: 'A1', state: 'failed', request_sha256: 'h', created_at_utc: 't', finished_at_utc: null,
    error: { reason: 'runtime_failed', message: `died ${EVIL}` }, reported_model: { model: `m ${EVIL}` }, usage: { provenance: 'none' },
    request: { mode: 'summary', instruction: `Summarise ${EVIL}\nplease`, sources: [source], notes: [] },
    output: { validated: false, text: `raw ${EVIL}\nline two` }, partial_text: '',
  };
  emit(humanIo(out), answer, () => answerText(answer as never));
  const preview = {
    preview_id: 'P1', expires_at_utc: 't', project_id: 'p', project_revision: 1, files: [{ filename: `paper ${EVIL}.pdf`, file_id: 'f', version_id: 'v', pages: [1], page_count: 1, file_sha256: 's' }],
    payload: { mode: 'summary', choices: { runtime: 'api_key', provider: 'openai', model: null, effort: null }, instruction: `Summarise ${EVIL}`, sources: [source], notes: [{ note_id: 1, note_revision: 1, text: `note ${EVIL}` }] },
    available_notes: [], limitations: [], system_bytes: 1, system_sha256: 's', user_bytes: 1, user_sha256: 'u', request_sha256: 'r',
    connection: { available: false, reason: `No key ${EVIL}` },
  };
  emit(humanIo(out), preview, () => previewText(preview as never));
  const page = { requested_page: 1, page_count: 1, page_basis: 'pdf', status: 'ok', reason: null, message: null, extraction_contract: 'c', text: `Page ${EVIL}\nline two`, page_sha256: 'h', codepoint_length: 20, highlights: [{ note_id: 1, start: 0, end: 4, quote: `q ${EVIL}`, body: `b ${EVIL}\nmore` }] };
  emit(humanIo(out), page, () => pageText(page as never));
  const notes = [{ note_id: 1, revision: 1, kind: 'passage', file_id: 'f', body: `Body ${EVIL}\nline two`, anchor: { page: 1, start: 0, end: 4, quote: `q ${EVIL}` } }];
  emit(humanIo(out), notes, () => notesText(notes));
  clean(out.join('\n'), 'answer and evidence views');
  assert.match(out.join('\n'), /^ {2}Body x\[31mred$/m, 'a note keeps its lines');
});

test('what is text stays: accents, CJK, Arabic and Hebrew, emoji joined by ZWJ, Persian and Indic ZWNJ, tabs; only the controls go', async () => {
  // 👩‍🔬 is woman + ZWJ + microscope; می‌خواهم needs its ZWNJ (U+200C) not to join the letters; क्‍ष keeps its ZWJ.
  const text = 'Zoë Ångström 李小龙 محمد שלום 👩\u200d🔬 🏳\ufe0f\u200d🌈 می\u200cخواهم क्\u200dष\tcol';
  const out: string[] = [];
  emit(humanIo(out), null, () => `${text}\u202e\u2066x\u2069\u200e`);
  assert.is(out.join(''), `${text}x`);
  const r = await inst.t.request('POST', '/api/profiles', { body: { name: 'Mina 👩\u200d🔬 می\u200cخواهم', aliases: [], affiliations: [] } });
  assert.is(r.status, 201, r.text);
  const shown = await svc('profile', 'show', String(r.json().id));
  assert.is(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes('Mina 👩\u200d🔬 می\u200cخواهم'), JSON.stringify(shown.stdout));
});

test.run();
