/**
 * Evidence projects in headless Chromium against `svc window --no-open
 * --json`: a PDF imported from the Library page's file picker is added to a
 * project made on the Evidence page (the backend pins that exact version, the
 * page shows its short hash); a passage note saved on page 2 is listed with
 * its page and quote, linking to the reader; a rename sent from a page that
 * read an older revision shows the service's conflict, overwrites nothing and
 * shows the project as it is now; removing the file keeps its note. axe-core
 * on each state; screenshots: no project, a project, the conflict, narrow,
 * dark.
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
let vaultId = '';
let projectId = '';

const SENTENCE = 'Sleep stabilizes memory in older adults.';
const PDF = makePdf(['A first page about sleep.', { lines: [SENTENCE, 'The effect was small.'] }]);
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A Library or Evidence request as the window's page sends it. */
async function call(method: string, p: string, body?: unknown): Promise<any> {
  const r = await libraryRequest(win, method, p, { body });
  assert.ok(r.status >= 200 && r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.json();
}
const P = () => `/api/evidence/projects/${projectId}`;
const V = () => `expected_vault_id=${vaultId}`;

test.before(async () => {
  win = await startWindow(executablePath());
  const parent = path.join(win.dirs.root, 'Papers');
  fs.mkdirSync(parent);
  vaultId = (await call('POST', '/api/library/vault', { parent_directory: parent })).vault.vault_id;
  page = (await openPage(win.browser, await win.url('/library'), { bypassCSP: true })).page;
  await page.getByRole('heading', { name: 'Library', level: 1 }).waitFor({ timeout: 20_000 });
});
test.after(async () => {
  await win?.close();
});

test('a PDF imported by the file picker is added to a new project as that exact version, shown by its short hash', async () => {
  await page.locator('#library-import-input').setInputFiles({ name: 'sleep-review.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.locator('li[data-upload="sleep-review.pdf"] .note-ok').waitFor({ timeout: 20_000 });

  await page.getByRole('link', { name: 'Evidence projects' }).click();
  await page.getByText('No evidence project yet.').waitFor();
  assert.equal(await seriousViolations(page), [], 'axe: no project');
  await screenshot(page, 'window-evidence-none');

  await page.getByLabel('New project').fill('Sleep');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { name: 'Sleep', level: 1 }).waitFor();
  projectId = new URL(page.url()).pathname.split('/').pop()!;
  assert.is((await call('GET', `${P()}?${V()}`)).project.name, 'Sleep', 'the backend has the project');
  await page.getByText('This project holds no file yet.').waitFor();

  await page.getByRole('button', { name: /^Add sleep-review\.pdf/ }).click();
  const row = page.locator('tr[data-member="sleep-review.pdf"]');
  await row.waitFor();
  const members = (await call('GET', `${P()}/files?${V()}`)).items;
  assert.is(members.length, 1);
  const files = (await call('GET', `/api/library/files?${V()}`)).items;
  assert.is(members[0].version_id, files[0].version_id, 'pinned to the version imported');
  assert.is(members[0].sha256, sha(PDF));
  assert.match(await row.textContent(), sha(PDF).slice(0, 12));
  assert.is(await row.getByRole('link', { name: 'sleep-review.pdf' }).getAttribute('href'), `/evidence/${projectId}/files/${members[0].file_id}`);
  await page.locator('.pick-list').getByText('in this project').waitFor();
});

test('a passage note on page 2 is listed with its page and quote, linking to the reader at that page', async () => {
  const member = (await call('GET', `${P()}/files?${V()}`)).items[0];
  const read = await call('GET', `${P()}/reader/${member.file_id}?${V()}&version_id=${member.version_id}&page=2`);
  const start = [...read.text.slice(0, read.text.indexOf(SENTENCE))].length;
  assert.ok(start >= 0, read.text);
  const revision = (await call('GET', `${P()}?${V()}`)).project.revision;
  await call('POST', `${P()}/notes`, {
    expected_vault_id: vaultId,
    expected_revision: revision,
    file_id: member.file_id,
    version_id: member.version_id,
    kind: 'passage',
    body: 'The key claim.',
    anchor: { page_basis: read.page_basis, page: 2, extraction_contract: read.extraction_contract, page_sha256: read.page_sha256, start, end: start + [...SENTENCE].length, quote: SENTENCE },
  });
  await page.reload();
  const note = page.locator('.evidence-note');
  await note.waitFor({ timeout: 20_000 });
  assert.match(await note.textContent(), 'sleep-review.pdf, page 2');
  assert.is((await note.locator('blockquote').textContent()).trim(), SENTENCE);
  assert.match(await note.textContent(), 'The key claim.');
  assert.is(await note.getByRole('link').getAttribute('href'), `/evidence/${projectId}/files/${member.file_id}?page=2`);
  assert.equal(await seriousViolations(page), [], 'axe: a project with a file and a note');
  await screenshot(page, 'window-evidence-project');
});

test('a rename from a page that read an older revision shows the conflict, overwrites nothing, and shows the project as it is now', async () => {
  const before = (await call('GET', `${P()}?${V()}`)).project;
  // Another door renames it meanwhile: the page still holds the older revision.
  await call('PATCH', P(), { expected_vault_id: vaultId, expected_revision: before.revision, name: 'Sleep and memory' });

  await page.getByLabel('Name', { exact: true }).fill('My name');
  await page.getByRole('button', { name: 'Rename' }).click();
  const conflict = page.locator('.note-warn[role="alert"]');
  await conflict.waitFor();
  assert.match(await conflict.textContent(), /expected_revision is not the current project revision/);
  assert.match(await conflict.textContent(), /revision conflict/);
  await page.getByRole('heading', { name: 'Sleep and memory', level: 1 }).waitFor();
  const after = (await call('GET', `${P()}?${V()}`)).project;
  assert.is(after.name, 'Sleep and memory', 'the newer name was not overwritten');
  assert.is(after.revision, before.revision + 1);
  assert.is(await page.getByLabel('Name', { exact: true }).inputValue(), 'Sleep and memory', 'the field shows the name as it is now');
  assert.equal(await seriousViolations(page), [], 'axe: the conflict');
  await screenshot(page, 'window-evidence-conflict');

  // Read again, the same rename goes through.
  await page.getByLabel('Name', { exact: true }).fill('My name');
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('heading', { name: 'My name', level: 1 }).waitFor();
  assert.is((await call('GET', `${P()}?${V()}`)).project.name, 'My name');
});

test('removing the file keeps its note; 800 px wide and dark', async () => {
  await page.getByRole('button', { name: 'Remove sleep-review.pdf from the project' }).click();
  await page.getByText('This project holds no file yet.').waitFor();
  assert.is((await call('GET', `${P()}/files?${V()}`)).items.length, 0);
  assert.is((await call('GET', `${P()}/notes?${V()}`)).items.length, 1, 'the note stays');
  const kept = page.locator('.evidence-note');
  await kept.getByText('not in the project now').waitFor();
  assert.match(await kept.textContent(), 'sleep-review.pdf, page 2');
  assert.is(await kept.getByRole('link').count(), 0, 'no link to a reader that would refuse a file outside the project');

  await page.setViewportSize({ width: 800, height: 800 });
  assert.is(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), true, 'nothing wider than the window');
  await screenshot(page, 'window-evidence-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await seriousViolations(page), [], 'axe: dark');
  await screenshot(page, 'window-evidence-dark');
});

test.run();
