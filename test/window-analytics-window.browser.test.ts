/**
 * The analytics page's window control in Chromium against `svc window`: a
 * choice writes the address (and "Everything", the service's default, leaves
 * it out); a window the service refuses, typed into the address, shows the
 * service's words beside the control and no other refusal.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { backendRequest } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let w: PagesWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startPagesWindow(executablePath());
});
test.after(async () => w?.close());

test('the window control writes the address; a window the service refuses shows its words beside the control', async () => {
  const { page, context } = await w.open('/analytics');
  try {
    await page.getByText('No source was asked in this window.').waitFor();
    await page.getByLabel('Collected in').selectOption('30');
    await page.waitForURL((url: URL) => url.searchParams.get('window') === '30');
    assert.is(await page.getByLabel('Collected in').inputValue(), '30');
    await page.getByText('No source was asked in this window.').waitFor();
    await page.getByLabel('Collected in').selectOption('all');
    await page.waitForURL((url: URL) => !url.searchParams.has('window'), { timeout: 5000 });
  } finally {
    await context.close();
  }
  const refused = await backendRequest(w.session, 'GET', '/api/analytics/summary?window=forever');
  assert.is(refused.status, 422);
  const message = refused.json().detail.find((i: any) => i.loc.at(-1) === 'window').msg;
  const opened = await w.open('/analytics?window=forever');
  try {
    await opened.page.locator('#control-window-error').waitFor();
    assert.is(await opened.page.locator('#control-window-error').textContent(), message);
    assert.is(await opened.page.getByLabel('Collected in').getAttribute('aria-invalid'), 'true');
    assert.is(await opened.page.locator('.note-error').count(), 0, 'the refusal is beside its control, not repeated as a note');
  } finally {
    await opened.context.close();
  }
});

test.run();
