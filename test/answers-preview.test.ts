import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import { canonicalJson } from '../src/answers/canonical-json.js';
import { answersOf } from '../src/answers/service.js';
import { refusal } from './_library.js';
import { makePdf } from './_pdf.js';
import { sel, startAnswerServer, TEXT, type AnswerServer } from './_answers.js';

let s: AnswerServer;
const sha = (t: string) => crypto.createHash('sha256').update(t, 'utf8').digest('hex');

test.before(async () => {
  s = await startAnswerServer({
    answers: { limits: { livePreviews: 3, previewTtlMs: 60_000 } },
    pdfs: {
      paper: makePdf(['Page one: results', 'Second page words', { image: true }]),
      encrypted: makePdf(['Secret words'], { encrypt: true }),
    },
  });
});
test.after(() => s.close());
test.before.each(() => answersOf(s.t.ctx).previews.clear());

test('a preview shows sources, hashes, byte counts, coverage and settings; identical segments collapse, overlapping stay', async () => {
  const noteId = await s.note(s.files.text!, 'My note about sleep');
  const r = await s.preview({
    selections: [
      sel(s.files.text!, [{ kind: 'page', page: 1 }, { kind: 'passage', page: 1, start_codepoint: 18, end_codepoint: 23 }, { kind: 'passage', page: 1, start_codepoint: 18, end_codepoint: 23 }, { kind: 'passage', page: 1, start_codepoint: 20, end_codepoint: 30 }, { kind: 'passage', page: 1, start_codepoint: 0, end_codepoint: [...TEXT].length }]),
      sel(s.files.paper!, [{ kind: 'page', page: 2 }]),
    ],
  });
  assert.is(r.status, 201, r.text);
  const p = r.json();
  assert.is(p.runtime_id, s.runtimeId);
  const sources = p.payload.sources;
  assert.equal(sources.map((x: any) => x.source_id), ['S01', 'S02', 'S03', 'S04']);
  assert.is(sources[0].text, TEXT);
  assert.is(sources[1].text, 'Sleep');
  assert.is(sources[2].text, 'eep helps ');
  assert.is(sources[3].text, 'Second page words');
  assert.is(sources[3].extraction_contract.startsWith('pdfjs'), true);
  for (const src of sources) {
    const { source_id, source_sha256, ...rest } = src;
    assert.is(source_sha256, sha(canonicalJson(rest)));
  }
  assert.is(p.request_sha256, sha(canonicalJson(p.payload)));
  const user = canonicalJson({ payload: p.payload, request_sha256: p.request_sha256 });
  assert.is(p.user_bytes, Buffer.byteLength(user));
  assert.is(p.user_sha256, sha(user));
  assert.ok(p.system_bytes > 0 && /^[0-9a-f]{64}$/.test(p.system_sha256));
  assert.equal(p.files.map((f: any) => f.pages), [[1], [2]]);
  assert.is(p.files[1].page_count, 3);
  assert.equal(p.payload.notes, []);
  const listed = p.available_notes.find((n: any) => n.note_id === noteId);
  assert.is(listed.selected, false); // optional notes start unselected
  assert.is(p.payload.choices.model, 'gpt-test');
  assert.ok(p.limitations.length > 0);
  assert.is(p.connection.available, false);

  const withNote = (await s.preview({ note_ids: [noteId] })).json();
  assert.equal(withNote.payload.notes.map((n: any) => [n.note_id, n.text]), [[noteId, 'My note about sleep']]);
  assert.is.not(withNote.request_sha256, p.request_sha256);
});

test('astral characters count one codepoint in passage offsets', async () => {
  const at = [...TEXT].indexOf('𝐀');
  const r = await s.preview({ selections: [sel(s.files.text!, [{ kind: 'passage', page: 1, start_codepoint: at, end_codepoint: at + 3 }])] });
  assert.is(r.status, 201, r.text);
  assert.is(r.json().payload.sources[0].text, '𝐀 e');
});

test('any unreadable selection refuses the whole preview', async () => {
  const text = sel(s.files.text!, [{ kind: 'page', page: 1 }]);
  refusal(await s.preview({ selections: [text, sel(s.files.paper!, [{ kind: 'page', page: 3 }])] }), 409, 'page_unreadable'); // image-only
  refusal(await s.preview({ selections: [sel(s.files.encrypted!, [{ kind: 'page', page: 1 }])] }), 409, 'page_unreadable');
  refusal(await s.preview({ selections: [sel(s.files.paper!, [{ kind: 'page', page: 9 }])] }), 422, 'page_out_of_range');
  refusal(await s.preview({ selections: [sel(s.files.text!, [{ kind: 'passage', page: 1, start_codepoint: 5, end_codepoint: 5 }])] }), 422, 'passage_out_of_range');
  refusal(await s.preview({ selections: [sel(s.files.text!, [{ kind: 'passage', page: 1, start_codepoint: 0, end_codepoint: 9999 }])] }), 422, 'passage_out_of_range');
  refusal(await s.preview({ selections: [{ ...text, version_id: crypto.randomUUID() }] }), 409, 'version_mismatch');
  refusal(await s.preview({ selections: [{ ...text, file_id: crypto.randomUUID() }] }), 404, 'file_not_found');
  const outsider = await s.file('outside.txt', 'not a member');
  refusal(await s.preview({ selections: [sel(outsider, [{ kind: 'page', page: 1 }])] }), 409, 'not_a_member');
  refusal(await s.preview({ selections: [] }), 422, 'selection_invalid');
  refusal(await s.preview({ selections: [text, text] }), 422, 'selection_invalid');
  refusal(await s.preview({ selections: [sel(s.files.text!, [])] }), 422, 'selection_invalid');
  refusal(await s.preview({ selections: [sel(s.files.text!, [{ kind: 'page', page: 1, extra: 1 }])] }), 422, 'unknown_field');
  refusal(await s.preview({ selections: [sel(s.files.text!, [{ kind: 'page', page: 1.5 }])] }), 422, 'invalid_integer');
  refusal(await s.preview({ expected_revision: 999 }), 409, 'revision_conflict');
  refusal(await s.preview({ expected_runtime_id: crypto.randomUUID() }), 409, 'runtime_mismatch');
  refusal(await s.preview({ instruction: '   ' }), 422, 'instruction_invalid');
  refusal(await s.preview({ mode: 'essay' }), 422, 'invalid_value');
  refusal(await s.preview({ choices: { version: 1, runtime: 'api_key', provider: 'openai', model: 'm', effort: 'high' } }), 422, 'invalid_choices');
  refusal(await s.preview({ note_ids: [999999] }), 404, 'note_not_found');
  refusal(await s.preview({ extra: true }), 422, 'unknown_field');
  assert.is(answersOf(s.t.ctx).previews.size, 0);
});

test('preview routes need the Library origin and header', async () => {
  const r = await s.t.request('POST', s.A('/answer-previews'), { body: await s.body() });
  assert.is(r.status, 403);
  assert.is(r.headers['cache-control'], 'no-store');
});

test('live previews are bounded and expire', async () => {
  for (let i = 0; i < 3; i++) assert.is((await s.preview()).status, 201);
  refusal(await s.preview(), 413, 'preview_limit');
  const store = answersOf(s.t.ctx).previews;
  for (const e of store.values()) e.expiresAt = Date.now() - 1;
  assert.is((await s.preview()).status, 201);
  assert.is(store.size, 1);
});

test.run();
