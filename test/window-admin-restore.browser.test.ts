/**
 * A restore from the Administration page in headless Chromium against `svc
 * window --no-open --json` (a real shell on its fallback backend, arXiv a
 * loopback server with a recorded feed): papers stored by a dive, a backup,
 * the papers erased after it; the backup's restore is refused without its
 * typed word, then staged from the page; the banner says so on every page;
 * "Restart svc now" restarts the backend through the shell, the page
 * re-attaches and the papers are back — each step checked against what the
 * backend stored. axe-core on the page; screenshots: staged, restored.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { backendRequest, openPage, screenshot, seriousViolations } from './_window.js';
import { startAdminWindow, type AdminWindow } from './_window-admin.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: AdminWindow;

test.before(async () => {
  win = await startAdminWindow(executablePath());
  // A backup of the papers, then the papers erased (the page's own backup and erase: window-admin.browser.test.ts).
  const backup = await backendRequest(win.session, 'POST', '/api/backup', { body: {} });
  assert.is(backup.status, 201, backup.text);
  const erased = await backendRequest(win.session, 'POST', '/api/admin/erase-corpus', { body: { confirm: 'erase-corpus' } });
  assert.is(erased.status, 200, erased.text);
});
test.after(async () => {
  await win?.close();
});

async function adminPage(options: { bypassCSP?: boolean; width?: number; dark?: boolean } = {}) {
  const opened = await openPage(win.browser, await win.url('/admin'), options);
  if (options.dark) await opened.page.emulateMedia({ colorScheme: 'dark' });
  await opened.page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor({ timeout: 20_000 });
  return opened;
}

test('the backup\'s restore is staged from the page, said on every page, and "Restart svc now" brings the papers back', async () => {
  assert.is(await win.papersOfRun(), 0, 'the papers were erased after the backup');
  const { page, context } = await adminPage({ bypassCSP: true });
  try {
    await page.getByRole('button', { name: 'Use the last backup' }).click();
    await page.getByRole('button', { name: 'Verify and stage the restore' }).click();
    const refusal = page.locator('#restore-confirm-error');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /send confirm "restore"/);
    assert.is((await backendRequest(await win.fresh(), 'GET', '/api/backup/last')).json().staged, null, 'nothing staged without the word');

    await page.getByLabel(/Type restore to confirm/).fill('restore');
    await page.getByRole('button', { name: 'Verify and stage the restore' }).click();
    const banner = page.locator('aside.banner-restore');
    await banner.waitFor({ timeout: 30_000 });
    const staged = (await backendRequest(await win.fresh(), 'GET', '/api/backup/last')).json().staged;
    assert.ok(staged, 'the backend has the restore staged');
    assert.match(await banner.textContent(), /applies at the next start/);
    assert.equal(await seriousViolations(page), [], 'axe: a restore staged');
    await screenshot(page, 'window-admin-staged');

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    assert.match(await banner.textContent(), /applies at the next start/, 'the banner is on every page');

    await banner.getByRole('button', { name: 'Restart svc now' }).click();
    await banner.waitFor({ state: 'detached', timeout: 60_000 });
    const after = (await backendRequest(await win.fresh(), 'GET', '/api/backup/last')).json();
    assert.is(after.staged, null);
    assert.ok(after.last_restore, 'the backend records the restore');
    assert.ok((await win.papersOfRun()) > 0, 'the papers erased after the backup are back');

    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByText(/Restored .* from the backup of/).waitFor({ timeout: 20_000 });
    assert.equal(await seriousViolations(page), [], 'axe: after the restore');
    await screenshot(page, 'window-admin-restored');
  } finally {
    await context.close();
  }
});

test.run();
