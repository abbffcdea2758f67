import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPdfPool } from '../src/evidence/pdf-pool.js';
import { DEFAULT_EVIDENCE_LIMITS } from '../src/evidence/limits.js';
import { evidenceOf } from '../src/evidence/index.js';
import { startEvidenceServer } from './_evidence.js';
import { makePdf, pdfSource } from './_pdf.js';
import { waitFor } from './_setup.js';

const PDF = makePdf(['Page one: results', 'Page two']);

test('the PDF child starts when a PDF joins a project and when a project holding one is shown, before any page is asked; text files start none', async () => {
  const s = await startEvidenceServer();
  try {
    const pool = evidenceOf(s.t.ctx).pdf();
    const notes = (await s.project('Notes only')).project_id;
    await s.add(notes, await s.file('notes.md', '# Notes\n'));
    assert.is((await s.call('GET', `${s.P(notes)}?${s.V}`)).status, 200);
    assert.is(pool.stats().spawned, 0, 'no PDF to read: no child');

    const papers = (await s.project('Papers')).project_id;
    const pdf = await s.file('paper.pdf', PDF);
    await s.add(papers, pdf);
    const first = pool.pid();
    assert.ok(first, 'the child starts when the PDF joins the project');
    assert.is(pool.stats().pages, 0, 'nothing was read');

    process.kill(first!, 'SIGKILL');
    await waitFor(() => pool.pid() === undefined || undefined, 5000, 'the child gone');
    assert.is((await s.call('GET', `${s.P(papers)}?${s.V}`)).status, 200);
    assert.ok(pool.pid(), 'a child starts again when the project is shown');
    assert.is(pool.stats().spawned, 2);

    const r = await s.call('GET', `${s.P(papers)}/reader/${pdf.file_id}?${s.V}&version_id=${pdf.version_id}&page=1`);
    assert.is(r.json().status, 'extracted');
    assert.is((await s.call('GET', `${s.P(papers)}?${s.V}`)).status, 200);
    assert.is(pool.stats().spawned, 2, 'the page was read by the child already started, and showing the project again starts no other');

  } finally {
    await s.close();
  }
});

test("a starting child's first document is read while it starts, and sent with the first request", async () => {
  const pool = createPdfPool(DEFAULT_EVIDENCE_LIMITS);
  try {
    const source = pdfSource(PDF);
    let startedWhenRead: boolean | undefined;
    const outcome = await pool.extract({ sha256: source.sha256, bytes: () => ((startedWhenRead = pool.stats().lastSpawnMs !== null), source.bytes()) }, 2);
    assert.is(outcome.kind === 'answer' && outcome.answer.status, 'extracted');
    assert.is(startedWhenRead, false, 'the bytes were read before the child was ready');
    assert.is(pool.stats().bytesSent, 1);
    // The next page is asked by hash alone: the child holds the document.
    let readAgain = false;
    const next = await pool.extract({ sha256: source.sha256, bytes: () => ((readAgain = true), source.bytes()) }, 1);
    assert.is(next.kind === 'answer' && next.answer.reused, true);
    assert.is(readAgain, false);
  } finally {
    pool.close();
  }
});

test('warm() starts one child at most, and none once the pool is closed', async () => {
  const pool = createPdfPool(DEFAULT_EVIDENCE_LIMITS);
  pool.warm();
  pool.warm();
  const pid = await waitFor(() => pool.pid(), 5000, 'child');
  assert.is(pool.stats().spawned, 1);
  pool.close();
  pool.warm();
  assert.is.not(pool.pid(), pid);
  assert.is(pool.pid(), undefined);
  assert.is(pool.stats().spawned, 1);
});

test.run();
