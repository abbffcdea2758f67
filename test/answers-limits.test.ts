import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { answersOf } from '../src/answers/service.js';
import { DEFAULT_ANSWER_LIMITS } from '../src/answers/limits.js';
import { refusal } from './_library.js';
import { makePdf } from './_pdf.js';
import { sel, startAnswerServer, TEXT, type AnswerServer } from './_answers.js';

let s: AnswerServer;
const limits = () => answersOf(s.t.ctx).limits;

test.before(async () => {
  s = await startAnswerServer({ pdfs: { many: makePdf(Array.from({ length: 14 }, (_, i) => `Page ${i + 1} text`)) } });
});
test.after(() => s.close());
test.before.each(() => {
  answersOf(s.t.ctx).previews.clear();
  Object.assign(limits(), DEFAULT_ANSWER_LIMITS);
});

const pages = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'page', page: i + 1 }));

test('the spec limits are the defaults', () => {
  const d = DEFAULT_ANSWER_LIMITS;
  assert.equal([d.membershipsMax, d.distinctPages, d.segments, d.notes, d.noteCodepoints, d.notesBytes], [5, 12, 24, 8, 2000, 8192]);
  assert.equal([d.sourceBytes, d.sourceCodepoints, d.instructionCodepoints, d.instructionBytes, d.userBytes, d.systemBytes], [49152, 24000, 4000, 16384, 98304, 16384]);
  assert.equal([d.assemblyMs, d.livePreviews, d.previewResidentBytes, d.previewTtlMs], [120000, 4, 524288, 600000]);
  assert.equal([d.deadlineMs, d.cliLineBytes, d.cliStdoutBytes, d.cliStderrBytes, d.apiBodyBytes, d.connectMs, d.inactivityMs, d.modelTextBytes], [300000, 262144, 1048576, 16384, 1048576, 10000, 60000, 65536]);
  assert.equal([d.answersPerProject, d.historyPage, d.attachMs, d.queueFrames, d.queueBytes], [1000, 50, 30000, 16, 262144]);
});

test('at most 12 distinct pages (13 refuse); repeated pages count once', async () => {
  const ok = await s.preview({ selections: [sel(s.files.many!, [...pages(12), { kind: 'page', page: 1 }])] });
  assert.is(ok.status, 201, ok.text);
  assert.is(ok.json().payload.sources.length, 12); // the repeated identical page collapsed
  refusal(await s.preview({ selections: [sel(s.files.many!, pages(13))] }), 413, 'selection_limit');
});

test('at most 24 distinct segments; at most 5 file versions', async () => {
  const passages = Array.from({ length: 25 }, (_, i) => ({ kind: 'passage', page: 1, start_codepoint: 0, end_codepoint: i + 1 }));
  refusal(await s.preview({ selections: [sel(s.files.text!, passages)] }), 413, 'selection_limit');
  assert.is((await s.preview({ selections: [sel(s.files.text!, passages.slice(0, 24))] })).status, 201);
  limits().membershipsMax = 1;
  refusal(await s.preview({ selections: [sel(s.files.text!, pages(1)), sel(s.files.many!, pages(1))] }), 413, 'selection_limit');
});

test('notes: at most 8, 2,000 codepoints each, 8 KiB together; only notes of selected versions', async () => {
  const ids: number[] = [];
  for (let i = 0; i < 9; i++) ids.push(await s.note(s.files.text!, `note ${i}`));
  const body = { selections: [sel(s.files.text!, pages(1))] };
  assert.is((await s.preview({ ...body, note_ids: ids.slice(0, 8) })).status, 201);
  refusal(await s.preview({ ...body, note_ids: ids }), 413, 'selection_limit');
  refusal(await s.preview({ ...body, note_ids: [ids[0], ids[0]] }), 422, 'selection_invalid');
  const long = await s.note(s.files.text!, 'é'.repeat(2001));
  refusal(await s.preview({ ...body, note_ids: [long] }), 413, 'text_limit');
  const big = [await s.note(s.files.text!, 'é'.repeat(1999)), await s.note(s.files.text!, 'é'.repeat(1999)), await s.note(s.files.text!, 'é'.repeat(1999))];
  refusal(await s.preview({ ...body, note_ids: big }), 413, 'text_limit'); // 3 × 3,998 bytes > 8 KiB
  const other = await s.note(s.files.many!, 'on another file');
  refusal(await s.preview({ ...body, note_ids: [other] }), 409, 'note_not_selectable');
});

test('instruction: 1 to 4,000 codepoints and 16 KiB', async () => {
  assert.is((await s.preview({ instruction: '𝐀'.repeat(4000) })).status, 201);
  refusal(await s.preview({ instruction: 'a'.repeat(4001) }), 413, 'text_limit');
  limits().instructionBytes = 100;
  refusal(await s.preview({ instruction: 'é'.repeat(51) }), 413, 'text_limit');
  refusal(await s.preview({ instruction: '' }), 422, 'instruction_invalid');
});

test('source text, user payload and system payload limits refuse (nothing truncated)', async () => {
  limits().sourceCodepoints = [...TEXT].length - 1;
  refusal(await s.preview(), 413, 'text_limit');
  Object.assign(limits(), DEFAULT_ANSWER_LIMITS, { sourceBytes: 20 });
  refusal(await s.preview(), 413, 'text_limit');
  Object.assign(limits(), DEFAULT_ANSWER_LIMITS, { userBytes: 500 });
  refusal(await s.preview(), 413, 'text_limit');
  Object.assign(limits(), DEFAULT_ANSWER_LIMITS, { systemBytes: 100 });
  refusal(await s.preview(), 413, 'text_limit');
});

test('previews: resident bytes bounded; one assembly at a time; assembly time limit', async () => {
  assert.is((await s.preview()).status, 201);
  const one = [...answersOf(s.t.ctx).previews.values()][0]!.residentBytes;
  answersOf(s.t.ctx).previews.clear();
  limits().previewResidentBytes = Math.floor(one * 1.5);
  assert.is((await s.preview()).status, 201);
  refusal(await s.preview(), 413, 'preview_memory');
  Object.assign(limits(), DEFAULT_ANSWER_LIMITS);
  answersOf(s.t.ctx).previews.clear();
  const [a, b] = await Promise.all([s.preview({ selections: [sel(s.files.many!, pages(6))] }), s.preview()]);
  assert.equal([a.status, b.status].sort(), [201, 409]);
  refusal(a.status === 409 ? a : b, 409, 'preview_busy');
  limits().assemblyMs = 1;
  refusal(await s.preview({ selections: [sel(s.files.many!, pages(10))] }), 413, 'preview_timeout');
  assert.is(answersOf(s.t.ctx).assembling, false);
});

test.run();
