/**
 * The Evidence reader in Chromium, beyond the PDF page: a Markdown file is one
 * page of text, and a note made from the keyboard alone (`/`, find, "Note on
 * this match") is anchored in codepoints, not UTF-16 units, past an astral
 * character; the page statuses of spec 2 are said in words (no text, an
 * encrypted file); a plain note the service refuses shows its words beside
 * the field; a stale project revision is said and the page read again, never
 * overwritten. Each checked against what the backend stored.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { makePdf } from './_pdf.js';
import { screenshot, seriousViolations } from './_window.js';
import { startEvidenceWindow, type EvidenceWindow } from './_window-evidence.js';

/** The page's document, for waits written as functions (see openPage in _window.ts: never as strings). */
declare const document: any;

const { test, executablePath } = browserTests();

const MARKDOWN = '# Reading notes\n\nThe symbol 𝐀 (bold A) and 😀 come first; then the key claim: matrices commute here.\nLast line.\n';
const CLAIM = 'matrices commute here';

let w: EvidenceWindow;
let projectId: string;
const files: Record<string, { file_id: string; version_id: string; sha256: string }> = {};
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startEvidenceWindow(executablePath());
  files.md = await w.importFile('reading-notes.md', MARKDOWN);
  files.scan = await w.importFile('scan.pdf', makePdf(['A page with words', { image: true }]));
  files.locked = await w.importFile('locked.pdf', makePdf(['Secret words'], { encrypt: true }));
  projectId = await w.project('Text and statuses', Object.values(files));
});
test.after(async () => w?.close());

const readerPath = (f: { file_id: string }, page?: number) => `/evidence/${projectId}/files/${f.file_id}${page ? `?page=${page}` : ''}`;
const ready = (page: any, n: number) => page.waitForSelector(`[data-ready-page="${n}"]`, { timeout: 20_000 });
const notesOf = async (f: { file_id: string; version_id: string }) =>
  (await w.api('GET', `/api/evidence/projects/${projectId}/notes?expected_vault_id=${w.vaultId}&file_id=${f.file_id}&version_id=${f.version_id}`)).items;

test('a Markdown file is one page of text; `/`, find and "Note on this match" anchor a note from the keyboard, in codepoints', async () => {
  const { page, context } = await w.open(readerPath(files.md!), { bypassCSP: true });
  try {
    await ready(page, 1);
    assert.is(await page.locator('.page-text').textContent(), MARKDOWN, 'the file’s text as one page, Markdown shown as written');
    assert.is(await page.getByLabel('Page', { exact: true }).count(), 0, 'no page navigation for one page');
    await page.locator('h1').click();
    await page.keyboard.press('/');
    assert.is(await page.evaluate('document.activeElement.id'), 'reader-find');
    await page.keyboard.type(CLAIM);
    await page.locator('#reader-find-count', { hasText: '1 of 1' }).waitFor();
    assert.is(await page.locator('.page-text mark.find-current').textContent(), CLAIM);
    await page.getByRole('button', { name: 'Note on this match' }).focus();
    await page.keyboard.press('Enter');
    // The form takes focus once drawn: a keystroke before that would go elsewhere (a person waits for the caret).
    await page.waitForFunction(() => document.activeElement?.id === 'note-body', undefined, { timeout: 10_000 });
    await page.keyboard.type('Only for square matrices of this kind.');
    await page.getByRole('button', { name: 'Save note' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.page-text mark.hl').waitFor();

    const [note] = await notesOf(files.md!);
    const unitIndex = MARKDOWN.indexOf(CLAIM);
    const start = [...MARKDOWN.slice(0, unitIndex)].length;
    assert.ok(start < unitIndex, 'the astral characters make codepoints and UTF-16 units differ here');
    assert.equal([note.anchor.page_basis, note.anchor.page, note.anchor.start, note.anchor.end, note.anchor.quote], ['logical', 1, start, start + CLAIM.length, CLAIM], 'codepoint offsets, as the service counts them');
    assert.is(note.body, 'Only for square matrices of this kind.');
    assert.is(await page.locator('.page-text mark.hl').textContent(), CLAIM);
    assert.equal(await seriousViolations(page), [], 'axe-core on a text file with a highlight and a find match');
    await screenshot(page, 'reader-markdown');
  } finally {
    await context.close();
  }
});

test('page statuses in words: an image-only page has no text (not evidence of no content); an encrypted PDF is unsupported', async () => {
  const { page, context } = await w.open(readerPath(files.scan!, 2), { bypassCSP: true });
  try {
    await ready(page, 2);
    const served = await w.readPage(projectId, files.scan!, 2);
    assert.is(served.status, 'no_text');
    assert.match(await page.locator('.reader-pane').nth(1).textContent(), 'No text is not evidence of no content');
    assert.is(await page.locator('.page-text').count(), 0);
    assert.ok(await page.getByRole('button', { name: 'Note on selection' }).isDisabled());
    assert.equal(await seriousViolations(page), [], 'axe-core on a page without text');
    await screenshot(page, 'reader-no-text');
  } finally {
    await context.close();
  }
  const locked = await w.open(readerPath(files.locked!, 1));
  try {
    await ready(locked.page, 1);
    const served = await w.readPage(projectId, files.locked!, 1);
    assert.is(served.status, 'unsupported');
    const said = await locked.page.locator('.reader-pane .note-error').textContent();
    assert.match(said, 'svc does not read this file in the app');
    assert.match(said, served.message, 'with the service’s own message');
  } finally {
    await locked.context.close();
  }
});

test('a plain note: an empty body is refused in the service’s words beside the field; a stale revision is said, the page read again, and a second Save keeps it', async () => {
  const { page, context } = await w.open(readerPath(files.md!));
  try {
    await ready(page, 1);
    await page.getByRole('button', { name: 'Plain note' }).click();
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.locator('#note-body-error').waitFor();
    assert.match(await page.locator('#note-body-error').textContent(), 'A plain note needs text');
    assert.is(await page.getByLabel('Your note').getAttribute('aria-invalid'), 'true');

    // Another door renames the project meanwhile: the revision this page read is stale.
    const project = (await w.api('GET', `/api/evidence/projects/${projectId}?expected_vault_id=${w.vaultId}`)).project;
    await w.api('PATCH', `/api/evidence/projects/${projectId}`, { expected_vault_id: w.vaultId, expected_revision: project.revision, name: 'Renamed elsewhere' });
    const before = (await notesOf(files.md!)).length;
    await page.getByLabel('Your note').fill('Check the appendix too.');
    // Every read of the project (its notes, the page) is slow from here on. The words "has read it again" come
    // once the current revision is in hand, so a Save the moment they show carries it, not the stale one again.
    const projectPath = `/api/evidence/projects/${projectId}/`;
    await page.route((u: URL) => u.pathname.startsWith(projectPath), async (route: any) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.locator('.note-form .note-error', { hasText: 'not the current project revision' }).waitFor();
    assert.match(await page.locator('.status-line').textContent(), 'the reader has read it again');
    assert.is((await notesOf(files.md!)).length, before, 'nothing was written on a stale revision');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.locator('.reader-note', { hasText: 'Check the appendix too.' }).waitFor();
    const saved = (await notesOf(files.md!)).find((n: any) => n.body === 'Check the appendix too.');
    assert.equal([saved.kind, saved.anchor], ['plain', null]);
  } finally {
    await context.close();
  }
});

test.run();
