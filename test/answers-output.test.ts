import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateAnswerOutput, OUTPUT_LIMITS, type OutputRequest } from '../src/answers/output-validate.js';

const SHA = 'a'.repeat(64);
const S1 = 'Alpha 😀 beta gamma. The sample was heated to 300 K. Alpha again.';
const S2 = 'Second source: no effect was observed.';
const REQ: OutputRequest = {
  request_sha256: SHA,
  mode: 'answer',
  sources: [{ source_id: 'S01', text: S1 }, { source_id: 'S02', text: S2 }],
  notes: [{ note_id: 7 }, { note_id: 9 }],
};

type Obj = Record<string, any>;
function good(): Obj {
  return {
    version: 1,
    request_sha256: SHA,
    mode: 'answer',
    status: 'answer',
    sections: [
      { kind: 'summary', title: 'Summary', items: [
        { kind: 'source_statement', text: 'The sample was heated.', citations: [{ source_id: 'S01', quote: 'heated to 300 K' }] },
        { kind: 'interpretation', text: 'Probably no effect.', citations: [{ source_id: 'S02', quote: 'no effect', start: 15, end: 24 }] },
      ] },
      { kind: 'details', items: [{ kind: 'note_summary', text: 'My notes say so.', note_ids: [7] }] },
      { kind: 'questions', items: [{ kind: 'question', text: 'Why 300 K?' }] },
    ],
    limitations: ['Only two sources were selected.'],
  };
}

function refused(output: unknown, reason: string, pathPart?: string, req: OutputRequest = REQ) {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const r = validateAnswerOutput(text, req);
  assert.is(r.ok, false, `expected refusal ${reason}`);
  if (r.ok) return;
  assert.is(r.reason, reason, r.detail);
  assert.type(r.detail, 'string');
  if (pathPart) assert.ok(r.path.includes(pathPart), `${r.path} should include ${pathPart}`);
}

test('a valid answer is accepted and citations carry codepoint offsets', () => {
  const r = validateAnswerOutput(JSON.stringify(good()), REQ);
  assert.ok(r.ok, r.ok ? '' : r.detail);
  if (!r.ok) return;
  const c = (r.result.sections[0].items[0] as any).citations[0];
  const H = [...S1.slice(0, S1.indexOf('heated'))].length;
  assert.is(H, S1.indexOf('heated') - 1);
  // "Alpha 😀 beta gamma. The sample was " — the emoji counts one codepoint.
  assert.equal(c, { source_id: 'S01', quote: 'heated to 300 K', start: H, end: H + 15 });
  assert.is([...S1].slice(c.start, c.end).join(''), 'heated to 300 K');
  assert.equal((r.result.sections[0].items[1] as any).citations[0], { source_id: 'S02', quote: 'no effect', start: 15, end: 24 });
});

test('offsets are codepoints: an astral character counts one', () => {
  const o = good();
  o.sections = [{ kind: 'summary', items: [{ kind: 'source_statement', text: 'x', citations: [{ source_id: 'S01', quote: 'beta', start: 8 }] }] }];
  const r = validateAnswerOutput(JSON.stringify(o), REQ);
  assert.ok(r.ok, r.ok ? '' : r.detail);
  // Repeated quote without offsets: the first occurrence.
  o.sections[0].items[0].citations = [{ source_id: 'S01', quote: 'Alpha' }];
  const r2 = validateAnswerOutput(JSON.stringify(o), REQ);
  assert.ok(r2.ok && (r2.result.sections[0].items[0] as any).citations[0].start === 0);
  // The second occurrence named by its offset.
  const second = [...S1].join('').lastIndexOf('Alpha') - 1; // one surrogate pair before it
  o.sections[0].items[0].citations = [{ source_id: 'S01', quote: 'Alpha', start: second, end: second + 5 }];
  assert.ok(validateAnswerOutput(JSON.stringify(o), REQ).ok);
});

test('insufficient_evidence may have no sections; answer may not be empty', () => {
  const o = good();
  o.status = 'insufficient_evidence';
  o.sections = [];
  assert.ok(validateAnswerOutput(JSON.stringify(o), REQ).ok);
  o.status = 'answer';
  refused(o, 'empty_answer');
  o.sections = [{ kind: 'summary', items: [] }];
  refused(o, 'empty_answer');
});

test('whitespace around the object is fine; anything else is not JSON', () => {
  assert.ok(validateAnswerOutput(`\n  ${JSON.stringify(good())}\n`, REQ).ok);
  refused('```json\n' + JSON.stringify(good()) + '\n```', 'not_json');
  refused('Here is the answer: ' + JSON.stringify(good()), 'not_json');
  refused(JSON.stringify(good()) + JSON.stringify(good()), 'not_json');
  refused('', 'not_json');
});

test('not an object, duplicate keys, lone surrogates', () => {
  refused('[]', 'not_object');
  refused('"text"', 'not_object');
  refused('null', 'not_object');
  const t = JSON.stringify(good());
  refused(t.replace('"version":1', '"version":1,"version":1'), 'duplicate_key');
  refused(t.replace('"Why 300 K?"', '"Why \\ud800?"'), 'lone_surrogate');
});

test('model text over 64 KiB is refused before parsing', () => {
  const o = good();
  const pad = ' '.repeat(OUTPUT_LIMITS.modelTextBytes);
  refused(JSON.stringify(o) + pad, 'output_too_large');
  // Counted in UTF-8 bytes, not characters.
  const multi = JSON.stringify(o) + '\n'.repeat(OUTPUT_LIMITS.modelTextBytes - JSON.stringify(o).length);
  assert.ok(validateAnswerOutput(multi, REQ).ok);
  refused(multi + ' ', 'output_too_large');
});

test('unknown fields are refused at every level', () => {
  const top = good(); top.extra = 1; refused(top, 'unknown_field', '$.extra');
  const sec = good(); sec.sections[0].note = 'x'; refused(sec, 'unknown_field', 'sections[0].note');
  const item = good(); item.sections[0].items[0].confidence = 0.9; refused(item, 'unknown_field', 'items[0].confidence');
  const cit = good(); cit.sections[0].items[0].citations[0].page = 1; refused(cit, 'unknown_field', 'citations[0].page');
  const q = good(); q.sections[2].items[0].citations = []; refused(q, 'unknown_field', 'citations');
  const ns = good(); ns.sections[1].items[0].extra = 1; refused(ns, 'unknown_field');
});

test('missing fields and wrong types', () => {
  for (const key of ['version', 'request_sha256', 'mode', 'status', 'sections', 'limitations']) {
    const o = good(); delete o[key]; refused(o, 'missing_field', key);
  }
  const s = good(); delete s.sections[0].items; refused(s, 'missing_field', 'items');
  const c = good(); delete c.sections[0].items[0].citations[0].quote; refused(c, 'missing_field', 'quote');
  const n = good(); delete n.sections[1].items[0].note_ids; refused(n, 'missing_field', 'note_ids');
  const t = good(); delete t.sections[2].items[0].text; refused(t, 'missing_field', 'text');
  const a = good(); a.sections = {}; refused(a, 'wrong_type', 'sections');
  const l = good(); l.limitations = [1]; refused(l, 'wrong_type', 'limitations[0]');
  const x = good(); x.sections[0].items[0].text = 5; refused(x, 'wrong_type');
  const st = good(); st.sections[0].items[1].citations[0].start = 15.5; refused(st, 'wrong_type', 'start');
  const sn = good(); sn.sections[0].items[1].citations[0].start = -1; refused(sn, 'wrong_type', 'start');
  const ss = good(); ss.sections[0].items[1].citations[0].start = '15'; refused(ss, 'wrong_type', 'start');
  const it = good(); it.sections[0].items[0] = 'text'; refused(it, 'wrong_type');
  const ni = good(); ni.sections[1].items[0].note_ids = [true]; refused(ni, 'wrong_type');
});

test('version, request hash and mode must match the request', () => {
  const v = good(); v.version = 2; refused(v, 'version_mismatch');
  const vs = good(); vs.version = '1'; refused(vs, 'version_mismatch');
  const h = good(); h.request_sha256 = 'b'.repeat(64); refused(h, 'request_mismatch');
  const m = good(); m.mode = 'briefing'; refused(m, 'mode_mismatch');
  assert.ok(validateAnswerOutput(JSON.stringify({ ...good(), mode: 'briefing' }), { ...REQ, mode: 'briefing' }).ok);
});

test('status, section and item kinds are closed sets', () => {
  const s = good(); s.status = 'partial'; refused(s, 'status_invalid');
  const k = good(); k.sections[0].kind = 'intro'; refused(k, 'section_kind_invalid');
  const i = good(); i.sections[0].items[0].kind = 'claim'; refused(i, 'item_kind_invalid');
  const e = good(); e.sections[0].items[0].text = '   '; refused(e, 'text_empty');
  const tt = good(); tt.sections[0].title = ''; refused(tt, 'text_empty');
  const lt = good(); lt.limitations = ['']; refused(lt, 'text_empty');
});

test('source statements and interpretations need exact citations of selected text', () => {
  const none = good(); none.sections[0].items[0].citations = []; refused(none, 'citation_required');
  const noneI = good(); noneI.sections[0].items[1].citations = []; refused(noneI, 'citation_required');
  const pattern = good(); pattern.sections[0].items[0].citations[0].source_id = 'S25'; refused(pattern, 'citation_source_invalid');
  const p2 = good(); p2.sections[0].items[0].citations[0].source_id = 's01'; refused(p2, 'citation_source_invalid');
  const p3 = good(); p3.sections[0].items[0].citations[0].source_id = 'S1'; refused(p3, 'citation_source_invalid');
  const unknown = good(); unknown.sections[0].items[0].citations[0].source_id = 'S03'; refused(unknown, 'citation_source_unknown');
  const nf = good(); nf.sections[0].items[0].citations[0].quote = 'heated to 301 K'; refused(nf, 'citation_quote_not_found');
  const ws = good(); ws.sections[0].items[0].citations[0].quote = 'heated  to 300 K'; refused(ws, 'citation_quote_not_found');
  const cs = good(); cs.sections[0].items[0].citations[0].quote = 'Heated to 300 K'; refused(cs, 'citation_quote_not_found');
  // A quote from the other source is not in this one.
  const other = good(); other.sections[0].items[0].citations[0].quote = 'no effect'; refused(other, 'citation_quote_not_found');
  const half = good(); half.sections[0].items[0].citations[0].quote = '\ud83d'; refused(half, 'lone_surrogate');
  const empty = good(); empty.sections[0].items[0].citations[0].quote = ''; refused(empty, 'quote_empty');
  const off = good(); off.sections[0].items[1].citations[0].start = 16; refused(off, 'citation_offset_mismatch', 'start');
  const end = good(); end.sections[0].items[1].citations[0].end = 25; refused(end, 'citation_offset_mismatch', 'end');
  const endOnly = good(); endOnly.sections[0].items[0].citations[0].end = 10; refused(endOnly, 'citation_offset_mismatch', 'end');
  const past = good(); past.sections[0].items[1].citations[0] = { source_id: 'S02', quote: 'observed.', start: 100 }; refused(past, 'citation_offset_mismatch');
});

test('note summaries cite selected notes only and never document sources', () => {
  const cites = good(); cites.sections[1].items[0].citations = [{ source_id: 'S01', quote: 'Alpha' }]; refused(cites, 'note_summary_cites_source');
  const unknown = good(); unknown.sections[1].items[0].note_ids = [7, 8]; refused(unknown, 'note_unknown', 'note_ids[1]');
  const str = good(); str.sections[1].items[0].note_ids = ['7']; refused(str, 'note_unknown');
  const none = good(); none.sections[1].items[0].note_ids = []; refused(none, 'note_required');
  const noNotes = good(); refused(noNotes, 'note_unknown', undefined, { ...REQ, notes: [] });
  // A statement cannot name notes instead of sources.
  const stmt = good(); stmt.sections[0].items[0].note_ids = [7]; refused(stmt, 'unknown_field', 'note_ids');
});

test('limits: 6 sections, 36 items, 72 citations, quote 1,000 codepoints', () => {
  const q = { kind: 'question', text: 'q?' };
  const sec = good(); sec.sections = Array.from({ length: 7 }, () => ({ kind: 'questions', items: [q] })); refused(sec, 'too_many_sections');
  const six = good(); six.sections = Array.from({ length: 6 }, () => ({ kind: 'questions', items: [q] })); assert.ok(validateAnswerOutput(JSON.stringify(six), REQ).ok);
  const items = good(); items.sections = [{ kind: 'questions', items: Array(20).fill(q) }, { kind: 'details', items: Array(17).fill(q) }]; refused(items, 'too_many_items');
  const i36 = good(); i36.sections = [{ kind: 'questions', items: Array(36).fill(q) }]; assert.ok(validateAnswerOutput(JSON.stringify(i36), REQ).ok);
  const cite = { source_id: 'S01', quote: 'Alpha' };
  const st = (n: number) => ({ kind: 'source_statement', text: 's', citations: Array(n).fill(cite) });
  const c73 = good(); c73.sections = [{ kind: 'details', items: [st(40), st(33)] }]; refused(c73, 'too_many_citations');
  const c72 = good(); c72.sections = [{ kind: 'details', items: [st(40), st(32)] }]; assert.ok(validateAnswerOutput(JSON.stringify(c72), REQ).ok);
  const long = '😀'.repeat(1001);
  const longReq = { ...REQ, sources: [{ source_id: 'S01', text: long }] };
  const ql = good(); ql.sections = [{ kind: 'details', items: [{ kind: 'source_statement', text: 's', citations: [{ source_id: 'S01', quote: long }] }] }];
  refused(ql, 'quote_too_long', undefined, longReq);
  ql.sections[0].items[0].citations[0].quote = '😀'.repeat(1000);
  assert.ok(validateAnswerOutput(JSON.stringify(ql), longReq).ok, 'exactly 1,000 codepoints (2,000 UTF-16 units) is fine');
});

test('limits: 20,000 visible codepoints across text, titles, quotes and limitations', () => {
  const o = good();
  const base = validateAnswerOutput(JSON.stringify(o), REQ);
  assert.ok(base.ok);
  const used = 'Summary'.length + 'The sample was heated.'.length + 'heated to 300 K'.length + 'Probably no effect.'.length + 'no effect'.length + 'My notes say so.'.length + 'Why 300 K?'.length + 'Only two sources were selected.'.length;
  o.limitations.push('é'.repeat(20_000 - used));
  assert.ok(validateAnswerOutput(JSON.stringify(o), REQ).ok);
  o.limitations.push('x');
  refused(o, 'visible_text_too_long', 'limitations[2]');
});

test('limits: depth 8', () => {
  const o = good();
  o.sections[0].items[0].citations[0].start = [[[[1]]]] as any;
  refused(o, 'too_deep');
  const deep = good();
  deep.extra = [[[[[[[[1]]]]]]]];
  refused(deep, 'too_deep');
});

test('an output nested 10,000 or 30,000 deep (as deep as 64 KiB of text goes) is refused too_deep, not a stack overflow', () => {
  for (const depth of [10_000, 30_000]) refused('['.repeat(depth) + ']'.repeat(depth), 'too_deep');
  refused(`{"version":1,"extra":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, 'too_deep');
});

test.run();
