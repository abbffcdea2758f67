/**
 * The window's session in headless Chromium against `svc window --no-open
 * --json` (a real process, no daemon: a fallback backend): the printed link
 * signs the tab in and leaves the address; a reload keeps the session; the
 * same link in another tab is refused and says how to get in, as a tab with
 * no link does; "Open in new tab" gives the new tab a code of its own; a page
 * of another origin cannot use the token; the app loads with no CSP
 * violation and no serious or critical axe-core finding. Screenshots of each
 * state go to test-output/screenshots/. "Start the daemon":
 * window-daemon.browser.test.ts.
 */
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { exchange, freshCode, launchBrowser, launchShell, openPage, screenshot, seriousViolations, windowDirs, type Session, type ShellProcess } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let browser: any;
let shell: ShellProcess;
let harness: Session;
const dirs = windowDirs();

test.before(async () => {
  [browser, shell] = await Promise.all([launchBrowser(executablePath()), launchShell(dirs.shellEnv)]);
});
test.after(async () => {
  await browser?.close();
  await shell?.stop();
  dirs.cleanup();
});

const stored = (page: any): Promise<any> => page.evaluate("JSON.parse(sessionStorage.getItem('svc.session') ?? 'null')");
const signedIn = (page: any) => page.waitForSelector('nav.nav', { timeout: 20_000 });
const noSession = (page: any) => page.waitForSelector('main.no-session', { timeout: 20_000 });
const cspViolations = (console: string[]) => console.filter((line) => /Content Security Policy|Refused to/i.test(line));

test('the printed link signs the tab in, leaves the address bar, and a reload keeps the session', async () => {
  const { page, console } = await openPage(browser, shell.line.url);
  await signedIn(page);
  assert.is(new URL(page.url()).hash, '', 'the launch code is gone from the address');
  const session = await stored(page);
  assert.is(session.token, fs.readFileSync(path.join(dirs.stateDir, `api-token-${new URL(shell.line.backend.base_url).port}`), 'utf8').trim());
  assert.is(session.role, 'fallback');
  assert.is(await page.evaluate('localStorage.length'), 0, 'never localStorage');
  assert.is(await page.evaluate('document.cookie'), '', 'never a cookie');
  assert.match(await page.textContent('aside.banner'), /scheduled routines run only while the background daemon runs/);
  await screenshot(page, 'window-home-fallback');
  await page.reload({ waitUntil: 'load' });
  await signedIn(page);
  assert.equal(await stored(page), session, 'the reload kept the session');
  assert.equal(cspViolations(console), []);
  // The first link is used: the harness takes its own session through a fresh code of this tab's.
  harness = await exchange(shell, await freshCode(shell, { ...session, shell_secret: session.shellSecret }));
  await page.context().close();
});

test('the same link in another tab is refused and says how to get in; so does a tab with no link', async () => {
  const reused = await openPage(browser, shell.line.url);
  await noSession(reused.page);
  const text = await reused.page.textContent('main');
  assert.match(text, /already been used/);
  assert.match(text, /svc window/);
  assert.match(text, /Open in new tab/);
  assert.is(await stored(reused.page), null);
  await screenshot(reused.page, 'window-link-used');
  await reused.context.close();

  const bare = await openPage(browser, `${shell.line.renderer_origin}/explore?q=soil`);
  await noSession(bare.page);
  assert.match(await bare.page.textContent('main'), /This tab has no session with svc/);
  assert.is(await stored(bare.page), null);
  await screenshot(bare.page, 'window-no-session');
  await bare.context.close();
});

test('"Open in new tab" gives the new tab a launch code of its own, not this tab\'s token by a URL', async () => {
  const { context, page } = await openPage(browser, `${shell.line.renderer_origin}/#launch=${await freshCode(shell, harness)}`);
  await signedIn(page);
  const [popup] = await Promise.all([context.waitForEvent('page'), page.click('text=Open in new tab')]);
  await popup.waitForLoadState('load');
  await signedIn(popup);
  assert.is(new URL(popup.url()).hash, '');
  assert.not.match(popup.url(), new RegExp(harness.token));
  assert.is((await stored(popup)).token, harness.token, 'its own exchange gave it the session');
  await context.close();
});

test('a page of another origin cannot call the backend with the token', async () => {
  const foreign = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
  const { context, page } = await openPage(browser, `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
  try {
    const outcome = await page.evaluate(
      `fetch(${JSON.stringify(harness.backend.base_url + '/api/health')}, { headers: { authorization: 'Bearer ${harness.token}' } }).then((r) => 'answered ' + r.status, (e) => 'refused: ' + e.message)`,
    );
    assert.match(outcome, /^refused/, 'the preflight from another origin is not answered with an allow-origin');
  } finally {
    await context.close();
    await new Promise((r) => foreign.close(r));
  }
});

test('axe-core finds no serious or critical violation on the signed-in page or the no-session page', async () => {
  const signed = await openPage(browser, `${shell.line.renderer_origin}/#launch=${await freshCode(shell, harness)}`, { bypassCSP: true });
  await signedIn(signed.page);
  await signed.page.waitForLoadState('networkidle');
  assert.equal(await seriousViolations(signed.page), []);
  await signed.context.close();
  const bare = await openPage(browser, `${shell.line.renderer_origin}/`, { bypassCSP: true });
  await noSession(bare.page);
  assert.equal(await seriousViolations(bare.page), []);
  await bare.context.close();
});

test.run();
