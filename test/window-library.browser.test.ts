/**
 * The Library page in headless Chromium against `svc window --no-open
 * --json` (a real shell on its fallback backend): the vault is created from
 * the page (a relative folder refused in the service's words first); a PDF
 * with a text layer is imported through the file picker as its bytes (the
 * backend holds exactly those bytes' SHA-256); the same bytes again are said
 * to be already in the Library (nothing new stored); a .docx and an empty
 * file are refused in the service's words. Then its evidence project:
 * window-evidence.browser.test.ts. axe-core on each state; screenshots:
 * empty, imported, refused, narrow, dark.
 */
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { makePdf } from './_pdf.js';
import { libraryRequest, openPage, screenshot, seriousViolations, startWindow, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
let page: any;

const PDF = makePdf(['A first page about sleep.', { lines: ['Sleep stabilizes memory in older adults.', 'The effect was small.'] }]);
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A Library read as the window's page sends it. */
async function library(p: string): Promise<any> {
  const r = await libraryRequest(win, 'GET', p);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

const pick = (name: string, buffer: Buffer, mimeType = 'application/octet-stream') => page.locator('#library-import-input').setInputFiles({ name, mimeType, buffer });
const uploadRow = (name: string) => page.locator(`li[data-upload="${name}"]`);

test.before(async () => {
  win = await startWindow(executablePath());
  // One tab for the whole file; its context bypasses the CSP for axe.
  page = (await openPage(win.browser, await win.url('/library'), { bypassCSP: true })).page;
  await page.getByRole('heading', { name: 'Library', level: 1 }).waitFor({ timeout: 20_000 });
});
test.after(async () => {
  await win?.close();
});

test('the vault is created from the page (a relative folder is refused in the service\'s words first); its status says the folder is reachable', async () => {
  await page.getByRole('heading', { name: 'Create the Library vault' }).waitFor();
  assert.equal(await seriousViolations(page), [], 'axe: no vault');
  await screenshot(page, 'window-library-no-vault');

  const field = page.getByLabel(/Folder to create the vault in/);
  await field.fill('Papers');
  await page.getByRole('button', { name: 'Create the vault' }).click();
  const refusal = page.locator('#vault-parent-refusal');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /parent_directory must be an absolute path/);
  assert.match(await refusal.textContent(), /parent not absolute/);
  assert.is((await library('/api/library')).vault, null, 'nothing was created');

  const parent = path.join(win.dirs.root, 'Papers');
  fs.mkdirSync(parent);
  await field.fill(parent);
  await page.getByRole('button', { name: 'Create the vault' }).click();
  const status = await (async () => {
    await page.locator('.library-vault .chip', { hasText: 'reachable' }).waitFor({ timeout: 10_000 });
    return library('/api/library');
  })();
  assert.ok(status.vault, 'the backend has the vault');
  assert.is(status.folder.reachable, true);
  assert.match(await page.locator('#vault-heading').textContent(), status.vault.label);
  assert.ok(fs.existsSync(path.join(fs.realpathSync(parent), `svc-library-${status.vault.vault_id}`)), 'the vault folder is inside the folder typed');
  await page.getByText('The Library holds no file yet.').waitFor();
  assert.equal(await seriousViolations(page), [], 'axe: an empty vault');
  await screenshot(page, 'window-library-empty');
});

test('a PDF with a text layer imported through the file picker is stored as exactly its bytes, and listed', async () => {
  await pick('sleep-review.pdf', PDF, 'application/pdf');
  await uploadRow('sleep-review.pdf').locator('.note-ok', { hasText: 'Imported as a new Library file' }).waitFor({ timeout: 20_000 });
  const vaultId = (await library('/api/library')).vault.vault_id;
  const files = (await library(`/api/library/files?expected_vault_id=${vaultId}`)).items;
  assert.is(files.length, 1);
  assert.is(files[0].original_name, 'sleep-review.pdf');
  assert.is(files[0].sha256, sha(PDF), 'the backend holds the bytes the page sent');
  assert.is(files[0].byte_size, PDF.length);
  const row = page.locator('.library-table tbody tr', { hasText: 'sleep-review.pdf' });
  await row.waitFor();
  assert.match(await row.textContent(), sha(PDF).slice(0, 12));

  // Its details: the exact version and no paper yet.
  await row.getByRole('link', { name: 'sleep-review.pdf' }).click();
  await page.locator('.library-file').getByText('Not linked to any paper.').waitFor();
  assert.match(await page.locator('.library-file').textContent(), files[0].version_id);
  // A paper id the corpus does not have: the service's refusal, and no link stored.
  await page.getByLabel('Link to paper (its id)').fill('999');
  await page.locator('.library-file').getByRole('button', { name: 'Link' }).click();
  await page.locator('.library-file .note-error', { hasText: 'No paper with id 999.' }).waitFor();
  assert.equal((await library(`/api/library/files/${files[0].file_id}?expected_vault_id=${vaultId}`)).paper_links, []);
  assert.equal(await seriousViolations(page), [], 'axe: a file imported and shown');
  await screenshot(page, 'window-library-imported');
});

test('the same bytes again are "already in the Library" (nothing new stored); a .docx and an empty file are refused in the service\'s words', async () => {
  await pick('copy-of-review.pdf', PDF, 'application/pdf');
  const dup = uploadRow('copy-of-review.pdf').locator('.note-warn');
  await dup.waitFor({ timeout: 20_000 });
  assert.match(await dup.textContent(), /already in the Library, as sleep-review\.pdf/);
  const vaultId = (await library('/api/library')).vault.vault_id;
  assert.is((await library(`/api/library/files?expected_vault_id=${vaultId}`)).items.length, 1, 'no second file');

  await page.locator('#library-import-input').setInputFiles([
    { name: 'draft.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK\u0003\u0004 not a pdf') },
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
  ]);
  const docx = uploadRow('draft.docx').locator('.note-error');
  const empty = uploadRow('empty.txt').locator('.note-error');
  await empty.waitFor({ timeout: 20_000 });
  assert.match(await docx.textContent(), /Only \.pdf, \.txt and \.md files can be imported/);
  assert.match(await docx.textContent(), /svc's reason: media unsupported/);
  assert.match(await empty.textContent(), /The file is empty \(0 bytes\)/);
  assert.is((await library(`/api/library/files?expected_vault_id=${vaultId}`)).items.length, 1, 'nothing refused was stored');
  assert.equal(await seriousViolations(page), [], 'axe: refusals');
  await screenshot(page, 'window-library-refused');
});

test('with the vault folder gone the page says so, in the service\'s words for what to do, and offers no import', async () => {
  const vaultId = (await library('/api/library')).vault.vault_id;
  const folder = path.join(fs.realpathSync(path.join(win.dirs.root, 'Papers')), `svc-library-${vaultId}`);
  fs.renameSync(folder, `${folder}.away`);
  try {
    await page.reload();
    const gone = page.locator('.library-vault .note-error');
    await gone.waitFor({ timeout: 20_000 });
    const said = (await library('/api/library')).folder;
    assert.is(said.reachable, false);
    assert.match(await gone.textContent(), said.message);
    assert.match(await gone.textContent(), /vault unavailable/);
    assert.is(await page.locator('#library-import-input').count(), 0, 'no import offered');
    await page.locator('.library-table tbody tr', { hasText: 'sleep-review.pdf' }).waitFor();
    assert.equal(await seriousViolations(page), [], 'axe: folder gone');
    await screenshot(page, 'window-library-folder-gone');
  } finally {
    fs.renameSync(`${folder}.away`, folder);
  }
  await page.reload();
  await page.locator('.library-vault .chip', { hasText: 'reachable' }).waitFor({ timeout: 20_000 });
});

test('the list is searched by file name; 800 px wide and dark', async () => {
  await page.locator('#library-q').fill('nothing-like-this');
  await page.getByText('No file name contains “nothing-like-this”.').waitFor();
  await page.locator('#library-q').fill('REVIEW');
  await page.locator('.library-table tbody tr', { hasText: 'sleep-review.pdf' }).waitFor();

  await page.setViewportSize({ width: 800, height: 800 });
  assert.is(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), true, 'nothing wider than the window');
  await screenshot(page, 'window-library-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await seriousViolations(page), [], 'axe: dark');
  await screenshot(page, 'window-library-dark');
});

test.run();
