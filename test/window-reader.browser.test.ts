/**
 * The Evidence reader in Chromium against `svc window`: a project's PDF opened
 * at page 2 draws the page and shows the service's text of it; a sentence
 * selected with the mouse in the text pane becomes a passage note whose anchor
 * the service verified (page, codepoint offsets, page hash, quote); after a
 * reload it is highlighted again from that anchor; a note whose anchor no
 * longer matches the page text is said so and never highlighted elsewhere;
 * PageDown/PageUp, the arrows and the page field turn pages. axe-core on the
 * reader, light and dark, wide and narrow; screenshots in test-output/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { makePdf } from './_pdf.js';
import { ROOT } from './_setup.js';
import { screenshot, seriousViolations } from './_window.js';
import { startEvidenceWindow, type EvidenceWindow } from './_window-evidence.js';

/** The page's document, for waits written as functions (see openPage in _window.ts: never as strings). */
declare const document: any;

const { test, executablePath } = browserTests();

const SENTENCE = 'The results hold for every sample we tried.';
const PAGES = [
  'First page: introduction',
  { lines: ['Second page', `We measured twelve samples. ${SENTENCE} The effect was small.`, 'A closing line of the second page.'] },
  { lines: ['Third page', 'Methods in detail.'] },
];

let w: EvidenceWindow;
let projectId: string;
let file: { file_id: string; version_id: string; sha256: string };
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startEvidenceWindow(executablePath());
  file = await w.importFile('results.pdf', makePdf(PAGES));
  projectId = await w.project('Thesis chapter 2', [file]);
});
test.after(async () => w?.close());

const readerPath = (page: number) => `/evidence/${projectId}/files/${file.file_id}?page=${page}`;
const notes = async () => (await w.api('GET', `/api/evidence/projects/${projectId}/notes?expected_vault_id=${w.vaultId}&file_id=${file.file_id}&version_id=${file.version_id}`)).items;
const ready = (page: any, n: number) => page.waitForSelector(`[data-ready-page="${n}"]`, { timeout: 20_000 });

/** Drag the mouse across `words` in the text pane, as a reader selects them. */
async function selectWithMouse(page: any, words: string): Promise<void> {
  const at = await page.evaluate(`(() => {
    const sought = ${JSON.stringify(words)};
    const pane = document.querySelector('.page-text');
    const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.data.indexOf(sought);
      if (i < 0) continue;
      const range = document.createRange();
      range.setStart(n, i);
      range.setEnd(n, i + sought.length);
      const rects = range.getClientRects();
      const first = rects[0];
      const last = rects[rects.length - 1];
      return { x1: first.left + 1, y1: first.top + first.height / 2, x2: last.right - 1, y2: last.top + last.height / 2 };
    }
    return null;
  })()`);
  assert.ok(at, `"${words}" is in the text pane`);
  await page.mouse.move(at.x1, at.y1);
  await page.mouse.down();
  await page.mouse.move(at.x2, at.y2, { steps: 8 });
  await page.mouse.up();
}

test('page 2 of a project PDF: drawn by pdf.js beside the service’s text of that page; no notes yet says how to make one', async () => {
  const { page, context, console } = await w.open(readerPath(2), { bypassCSP: true });
  try {
    await ready(page, 2);
    const served = await w.readPage(projectId, file, 2);
    assert.is(await page.locator('.page-text').textContent(), served.text, 'the text pane is the service’s page text, character for character');
    assert.is(await page.getByLabel('Page', { exact: true }).inputValue(), '2');
    const drawn = await page.evaluate(`(() => {
      const c = document.querySelector('canvas.drawn-canvas');
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] < 128 && data[i + 3] > 0) dark++;
      return { width: c.width, height: c.height, dark };
    })()`);
    assert.ok(drawn.width * drawn.height <= 4_000_000, 'one canvas within 4 million pixels');
    assert.ok(drawn.dark > 50, `the page's words are drawn on the canvas (${drawn.dark} dark pixels)`);
    await page.getByText('No notes on this file yet.').waitFor();
    assert.equal(await seriousViolations(page), [], 'axe-core on the reader without notes');
    await screenshot(page, 'reader-empty');
    assert.equal(console.filter((l) => /Content Security Policy|pageerror/i.test(l)), [], 'nothing refused by the CSP, no page error');
  } finally {
    await context.close();
  }
});

test('a sentence selected in the text pane becomes a passage note the service verified, highlighted at once', async () => {
  const { page, context } = await w.open(readerPath(2));
  try {
    await ready(page, 2);
    const note = page.getByRole('button', { name: 'Note on selection' });
    assert.ok(await note.isDisabled(), 'nothing to note before a selection');
    await selectWithMouse(page, SENTENCE);
    await page.waitForFunction(() => !document.querySelector('.reader-actions button')?.disabled);
    await note.click();
    assert.is(await page.locator('.note-form .note-quote').textContent(), SENTENCE, 'the form quotes exactly the selection');
    await page.getByLabel(/Your note/).fill('Holds across samples: cite in 2.3');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.locator('.page-text mark.hl').waitFor();

    const saved = await notes();
    assert.is(saved.length, 1);
    const served = await w.readPage(projectId, file, 2);
    const start = [...served.text.slice(0, served.text.indexOf(SENTENCE))].length;
    assert.equal(
      { kind: saved[0].kind, body: saved[0].body, page: saved[0].anchor.page, start: saved[0].anchor.start, end: saved[0].anchor.end, quote: saved[0].anchor.quote, hash: saved[0].anchor.page_sha256, contract: saved[0].anchor.extraction_contract },
      { kind: 'passage', body: 'Holds across samples: cite in 2.3', page: 2, start, end: start + [...SENTENCE].length, quote: SENTENCE, hash: served.page_sha256, contract: served.extraction_contract },
      'the backend stored the anchor: page, codepoint range, page hash and quote',
    );
    assert.is(await page.locator('.page-text mark.hl').textContent(), SENTENCE);
    assert.match(await page.locator('.status-line').textContent(), 'Note saved on page 2');
  } finally {
    await context.close();
  }
});

test('after a reload the note is highlighted again from its anchor, and listed with its page and quote', async () => {
  const { page, context } = await w.open(readerPath(2), { bypassCSP: true });
  try {
    await ready(page, 2);
    const [saved] = await notes();
    const mark = page.locator(`.page-text mark[data-notes~="${saved.note_id}"]`);
    await mark.waitFor();
    assert.is(await mark.textContent(), SENTENCE);
    const item = page.locator(`.reader-note[data-note-id="${saved.note_id}"]`);
    assert.match(await item.textContent(), /Page 2/);
    assert.is(await item.locator('.note-quote').textContent(), SENTENCE);
    assert.equal(await seriousViolations(page), [], 'axe-core on the reader with a highlight');
    await screenshot(page, 'reader-highlight');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await seriousViolations(page), [], 'dark too');
    await screenshot(page, 'reader-highlight-dark');
    await page.setViewportSize({ width: 800, height: 800 });
    await screenshot(page, 'reader-highlight-800-dark');
    assert.equal(await seriousViolations(page), [], 'and 800 px wide');
  } finally {
    await context.close();
  }
});

test('a note whose anchor no longer matches the page text is said so and not highlighted, never moved', async () => {
  const page2 = await w.readPage(projectId, file, 2);
  const quote = 'A closing line';
  const start = [...page2.text.slice(0, page2.text.indexOf(quote))].length;
  const created = await w.api('POST', `/api/evidence/projects/${projectId}/notes`, {
    expected_vault_id: w.vaultId,
    expected_revision: page2.project_revision,
    file_id: file.file_id,
    version_id: file.version_id,
    kind: 'passage',
    body: 'saved by an older svc',
    anchor: { page_basis: 'physical', page: 2, extraction_contract: page2.extraction_contract, page_sha256: page2.page_sha256, start, end: start + quote.length, quote },
  });
  const noteId = created.note.note_id;
  // As if saved on other text of this page (another extraction of it): the same range points at other words now.
  w.sql('UPDATE evidence_notes SET page_sha256 = ? WHERE id = ?', 'e'.repeat(64), noteId);
  const { page, context } = await w.open(readerPath(2));
  try {
    await ready(page, 2);
    await page.locator('.page-text mark.hl').first().waitFor();
    assert.is(await page.locator(`.page-text mark[data-notes~="${noteId}"]`).count(), 0, 'not highlighted anywhere');
    assert.match(await page.locator('.note-warn', { hasText: 'not highlighted' }).textContent(), 'anchor no longer matches this text');
    const item = page.locator(`.reader-note[data-note-id="${noteId}"]`);
    assert.match(await item.locator('.not-highlighted').textContent(), /Not highlighted: saved on other text of this page/);
    assert.is(await item.locator('.note-quote').textContent(), quote, 'its own quote is still shown');
    const served = await w.readPage(projectId, file, 2);
    assert.equal(served.not_highlighted.map((n: any) => [n.note_id, n.reason]), [[noteId, 'page_hash_mismatch']], 'as the service says');
    await screenshot(page, 'reader-not-highlighted');
  } finally {
    await context.close();
  }
});

test('keyboard: PageDown and → turn forward, PageUp and ← back, the page field goes to a page; each page is drawn with its text', async () => {
  const { page, context } = await w.open(readerPath(2));
  try {
    await ready(page, 2);
    await page.locator('h1').click();
    await page.keyboard.press('PageDown');
    await ready(page, 3);
    assert.match(new URL(page.url()).search, 'page=3');
    assert.is(await page.locator('.page-text').textContent(), (await w.readPage(projectId, file, 3)).text);
    await page.keyboard.press('PageDown');
    assert.match(new URL(page.url()).search, 'page=3', 'no page after the last');
    await page.keyboard.press('ArrowLeft');
    await ready(page, 2);
    await page.keyboard.press('PageUp');
    await ready(page, 1);
    assert.is(await page.locator('.page-text').textContent(), (await w.readPage(projectId, file, 1)).text);
    await page.keyboard.press('ArrowRight');
    await ready(page, 2);
    const field = page.getByLabel('Page', { exact: true });
    await field.fill('3');
    await field.press('Enter');
    await ready(page, 3);
    assert.is(await page.getByRole('heading', { name: 'Page 3, text' }).count(), 1);
  } finally {
    await context.close();
  }
});

test('pdf.js and its worker start while the verified bytes are still coming: the worker is asked for before the bytes arrive', async () => {
  const { context, page } = await w.open(`/evidence/${projectId}`);
  try {
    const asked: Record<string, number> = {};
    let bytesReleased = Infinity;
    page.on('request', (r: any) => {
      if (/\/pdf\.worker-[A-Z0-9]{8}\.mjs$/.test(r.url())) asked.worker ??= Date.now();
    });
    // The bytes are held back 1.5 s, as 16 MiB on a busy machine are.
    await context.route(/\/reader\/[^?]+\?.*representation=pdf/, async (route: any) => {
      if (route.request().method() !== 'GET') return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      bytesReleased = Date.now();
      await route.continue();
    });
    await page.evaluate(`history.pushState(null, '', ${JSON.stringify(readerPath(1))}); dispatchEvent(new PopStateEvent('popstate'))`);
    await ready(page, 1);
    assert.ok(asked.worker, 'the worker was fetched');
    assert.ok(asked.worker! < bytesReleased, `the worker was asked for ${bytesReleased - asked.worker!} ms before the bytes were let through`);
    assert.ok(await page.evaluate(`performance.getEntriesByName('svc-reader-pdf-open').length === 1`), 'the reader measured the document open');
  } finally {
    await context.close();
  }
});

test('pdf.js stays out of what `/` loads: neither the entry script nor a chunk it imports statically holds it; its worker is a file of /assets/', () => {
  const assets = path.join(ROOT, 'dist', 'web', 'assets');
  const main = /src="\/assets\/([^"]+\.js)"/.exec(fs.readFileSync(path.join(ROOT, 'dist', 'web', 'index.html'), 'utf8'))![1]!;
  const mainText = fs.readFileSync(path.join(assets, main), 'utf8');
  const statics = [...mainText.matchAll(/from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
  for (const f of [main, ...statics]) assert.not.match(fs.readFileSync(path.join(assets, f), 'utf8'), 'GlobalWorkerOptions', `${f} holds no pdf.js`);
  assert.ok(fs.readdirSync(assets).some((f) => /^pdf\.worker-[A-Z0-9]{8}\.mjs$/.test(f)), 'the worker, named by its content');
  assert.ok(fs.existsSync(path.join(assets, 'pdfjs-wasm', 'jbig2.wasm')), 'its WebAssembly decoders');
});

test.run();
