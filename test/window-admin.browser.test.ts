/**
 * The Administration page in headless Chromium against `svc window --no-open
 * --json` (a real shell on its fallback backend, arXiv a loopback server with
 * a recorded feed): papers stored by a dive are backed up from the page (the
 * backend records that bundle, and it verifies); the danger zone refuses to
 * erase them without the typed word (the service's refusal beside the field,
 * nothing erased), then erases them with it — each step checked against what
 * the backend stored. axe-core on the page; screenshots: empty, with a
 * backup, refused, narrow, dark. The restore and the restart from the page:
 * window-admin-restore.browser.test.ts.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { backendRequest, openPage, screenshot, seriousViolations } from './_window.js';
import { startAdminWindow, type AdminWindow } from './_window-admin.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: AdminWindow;
let page: any;

test.before(async () => {
  win = await startAdminWindow(executablePath());
  // One tab for the whole file (opening one is slow on a busy machine); its context bypasses the CSP for axe.
  page = (await adminPage({ bypassCSP: true })).page;
});
test.after(async () => {
  await win?.close();
});

async function adminPage(options: { bypassCSP?: boolean }) {
  const opened = await openPage(win.browser, await win.url('/admin'), options);
  await opened.page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor({ timeout: 20_000 });
  return opened;
}

test('a backup taken from the page is the one the backend records; the page passes axe with no backup and with one', async () => {
  const before = await win.papersOfRun();
  assert.ok(before > 0, 'the dive stored papers');
  {
    await page.getByText('No backup has been written yet.').waitFor();
    assert.equal(await seriousViolations(page), [], 'axe: no backup yet');
    await screenshot(page, 'window-admin-empty');

    await page.getByRole('button', { name: 'Take a backup' }).click();
    const written = page.locator('.note-ok', { hasText: 'Backup written' });
    await written.waitFor({ timeout: 60_000 });
    const last = (await backendRequest(await win.fresh(), 'GET', '/api/backup/last')).json().last_backup;
    assert.ok(last, 'the backend records the backup');
    assert.match(await written.textContent(), last.path);
    await page.locator('#backup .facts', { hasText: last.path }).waitFor();

    await page.getByRole('button', { name: 'Verify this backup' }).click();
    await page.getByText('Every hash matches').waitFor({ timeout: 30_000 });
    assert.equal(await seriousViolations(page), [], 'axe: with a backup');
    await screenshot(page, 'window-admin-backup');
  }
});

test('an erase scope is refused without its typed word (the service says why, beside the field; nothing is erased), and done with it', async () => {
  const before = await win.papersOfRun();
  {
    const scope = page.locator('details[data-scope="erase-corpus"]');
    await scope.locator('summary').click();
    await scope.getByText('Keeps').waitFor();
    const words = (await backendRequest(await win.fresh(), 'GET', '/api/admin/erase-scopes')).json().scopes.find((s: any) => s.scope === 'erase-corpus');
    assert.match(await scope.textContent(), words.keeps, 'what the scope keeps, in the service\'s words');

    await scope.getByRole('button', { name: 'Erase (erase-corpus)' }).click();
    const refusal = scope.locator('#erase-erase-corpus-error');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /send confirm "erase-corpus" to go ahead/);
    assert.is(await scope.getByLabel(/to confirm/).getAttribute('aria-describedby'), 'erase-erase-corpus-error');
    assert.is(await win.papersOfRun(), before, 'nothing was erased');

    await scope.getByLabel(/to confirm/).fill('corpus');
    await scope.getByRole('button', { name: 'Erase (erase-corpus)' }).click();
    await refusal.waitFor();
    assert.is(await win.papersOfRun(), before, 'a near word erases nothing either');
    await screenshot(page, 'window-admin-erase-refused');

    await scope.getByLabel(/to confirm/).fill('erase-corpus');
    await scope.getByRole('button', { name: 'Erase (erase-corpus)' }).click();
    await scope.locator('.note-ok', { hasText: 'Erased' }).waitFor({ timeout: 20_000 });
    assert.is(await win.papersOfRun(), 0, 'the papers are gone');
  }
});

test('800 px wide and dark', async () => {
  await page.setViewportSize({ width: 800, height: 800 });
  assert.is(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), true, 'nothing wider than the window');
  await screenshot(page, 'window-admin-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await seriousViolations(page), [], 'axe: dark');
  await screenshot(page, 'window-admin-dark');
});

test.run();
