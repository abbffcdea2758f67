import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_EVIDENCE_LIMITS } from '../src/evidence/limits.js';
import { createPdfPool } from '../src/evidence/pdf-pool.js';
import { pageTreeVerdict } from '../src/evidence/pdf-tree.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { compressedPdfFromObjects, deepTreeObjects, makePdf, pdfFromObjects, pdfSource, wideTreeObjects } from './_pdf.js';

// The spec's PDF reader limits that need a file of a given shape: the page
// tree (2,000 nodes, depth 32) and the child's answer (1 MiB of JSON).
let s: EvidenceServer;
let projectId: string;

test.before(async () => {
  s = await startEvidenceServer();
  projectId = (await s.project('Trees')).project_id;
});
test.after(() => s.close());

async function readPage(name: string, bytes: Buffer, page = 1) {
  const f: FileRef = await s.file(name, bytes);
  await s.add(projectId, f);
  const r = await s.call('GET', `${s.P(projectId)}/reader/${f.file_id}?${s.V}&version_id=${f.version_id}&page=${page}`);
  assert.is(r.status, 200, r.text);
  return r.json();
}

test('the default limits are the spec: 2,000 nodes, depth 32, 1 MiB of JSON', () => {
  assert.is(DEFAULT_EVIDENCE_LIMITS.pdfTreeNodes, 2_000);
  assert.is(DEFAULT_EVIDENCE_LIMITS.pdfTreeDepth, 32);
  assert.is(DEFAULT_EVIDENCE_LIMITS.pdfJsonBytes, 1024 * 1024);
});

test('the page tree is measured: classic and compressed cross-references, every node counted', () => {
  assert.equal(pageTreeVerdict(pdfFromObjects(deepTreeObjects(5)), 2000, 32), { ok: true, nodes: 5, depth: 5 });
  assert.equal(pageTreeVerdict(compressedPdfFromObjects(deepTreeObjects(5)), 2000, 32), { ok: true, nodes: 5, depth: 5 });
  assert.equal(pageTreeVerdict(compressedPdfFromObjects(wideTreeObjects(10)), 2000, 32), { ok: true, nodes: 12, depth: 2 });
  assert.equal(pageTreeVerdict(makePdf(['a', 'b', 'c']), 2000, 32), { ok: true, nodes: 4, depth: 2 });
  assert.is(pageTreeVerdict(pdfFromObjects(deepTreeObjects(33)), 2000, 32).ok, false);
  assert.is(pageTreeVerdict(Buffer.from('%PDF-1.4\nno cross-reference'), 2000, 32).ok, false);
});

test('a page 32 levels deep is read; 33 levels is limit_exceeded page_tree_depth', async () => {
  const ok = await readPage('deep32.pdf', pdfFromObjects(deepTreeObjects(32)));
  assert.is(ok.status, 'extracted');
  assert.is(ok.text, 'deep page');
  const deep = await readPage('deep33.pdf', pdfFromObjects(deepTreeObjects(33)));
  assert.is(deep.status, 'limit_exceeded');
  assert.is(deep.reason, 'page_tree_depth');
  assert.is(deep.page_count, 1);
  assert.equal(deep.examined_pages, []);
  assert.is(deep.text, null);
  // The same shape written with an object stream and a cross-reference stream.
  const packed = await readPage('deep33-packed.pdf', compressedPdfFromObjects(deepTreeObjects(33)));
  assert.is(packed.reason, 'page_tree_depth');
});

test('a page tree of 2,000 nodes is read; 2,001 nodes is limit_exceeded page_tree_nodes', async () => {
  const ok = await readPage('wide2000.pdf', pdfFromObjects(wideTreeObjects(1998)));
  assert.is(ok.status, 'extracted', JSON.stringify(ok));
  assert.is(ok.text, 'wide page');
  const wide = await readPage('wide2001.pdf', pdfFromObjects(wideTreeObjects(1999)));
  assert.is(wide.status, 'limit_exceeded');
  assert.is(wide.reason, 'page_tree_nodes');
  assert.equal(wide.pages, [{ page: 1, status: 'limit_exceeded' }]);
  // A kid that points back at the root is a tree without end: the walk stops at a limit.
  const objects = wideTreeObjects(0);
  objects[3] = '<< /Type /Pages /Kids [5 0 R 4 0 R] /Count 1 >>';
  const cycle = await readPage('cycle.pdf', pdfFromObjects(objects));
  assert.is(cycle.status, 'limit_exceeded');
  assert.is(cycle.reason, 'page_tree_depth');
  // Many kids sharing one node count once per visit.
  const shared = wideTreeObjects(1);
  shared[3] = `<< /Type /Pages /Kids [5 0 R ${'6 0 R '.repeat(1999)}] /Count 1 >>`;
  assert.is((await readPage('shared.pdf', pdfFromObjects(shared))).reason, 'page_tree_nodes');
});

test('a page tree that cannot be measured is refused, not read', async () => {
  // Valid for pdfjs, but its object stream uses a filter the measurement does not read.
  const bytes = compressedPdfFromObjects(deepTreeObjects(3), { hexObjectStream: true });
  assert.is(pageTreeVerdict(bytes, 2000, 32).ok, false);
  const r = await readPage('hex-objstm.pdf', bytes);
  assert.is(r.status, 'unsupported', JSON.stringify(r));
  assert.is(r.reason, 'page_tree_unreadable');
  assert.is(r.text, null);
});

/** A page of `chars` ASCII letters: lines of 1,000 in 1 pt type, so all of them lie on the page. */
function textPage(chars: number): Buffer {
  const lines: string[] = [];
  for (let left = chars; left > 0; left -= 1000) lines.push(`(${'abcdefghij'.repeat(100).slice(0, Math.min(1000, left))}) Tj 0 -0.6 Td`);
  return makePdf([{ raw: `BT /F1 1 Tf 2 785 Td\n${lines.join('\n')}\nET`, deflate: true }]);
}

test("the child's answer is at most 1 MiB of JSON: above it the page is limit_exceeded child_json", async () => {
  // The codepoint limit (200,000) normally binds first; raised here so only the JSON bound is left.
  const pool = createPdfPool({ ...DEFAULT_EVIDENCE_LIMITS, pdfCodepoints: 4_000_000 });
  try {
    const under = await pool.extract(pdfSource(textPage(1_000_000)), 1);
    assert.ok(under.kind === 'answer' && under.answer.status === 'extracted' && under.answer.text!.length > 1_000_000);
    const over = await pool.extract(pdfSource(textPage(1_100_000)), 1);
    assert.equal(over, { kind: 'limit', reason: 'child_json', message: `The parser's answer exceeds ${1024 * 1024} bytes of JSON.` });
    // The child that sent it is replaced; the next page reads.
    const next = await pool.extract(pdfSource(makePdf(['after'])), 1);
    assert.ok(next.kind === 'answer' && next.answer.text === 'after');
    assert.is(pool.stats().spawned, 2);
  } finally {
    pool.close();
  }
});

test('through the reader, an answer over the JSON limit is limit_exceeded with no text', async () => {
  const small = await startEvidenceServer({ limits: { pdfJsonBytes: 4096 } });
  try {
    const project = (await small.project('JSON')).project_id;
    const f = await small.file('long.pdf', textPage(5000));
    await small.add(project, f);
    const r = (await small.call('GET', `${small.P(project)}/reader/${f.file_id}?${small.V}&version_id=${f.version_id}&page=1`)).json();
    assert.is(r.status, 'limit_exceeded');
    assert.is(r.reason, 'child_json');
    assert.is(r.text, null);
    assert.equal(r.examined_pages, [1]);
  } finally {
    await small.close();
  }
});

test.run();
