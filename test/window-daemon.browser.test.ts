/**
 * "Start the daemon" in headless Chromium: a window on its fallback backend
 * (`svc window --no-open --json`, no daemon) asks its shell to start the
 * daemon, takes the daemon's token through a fresh launch code and reaches
 * the daemon, all without a reload and with no CSP violation.
 */
import * as assert from 'uvu/assert';
import { freePort, runCli, waitFor } from './_setup.js';
import { browserTests } from './_chromium.js';
import { launchBrowser, launchShell, openPage, screenshot, windowDirs, type ShellProcess } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let browser: any;
let shell: ShellProcess;
const dirs = windowDirs();
let daemonPort: number;

test.before(async () => {
  daemonPort = await freePort();
  dirs.shellEnv.SVC_PORT = String(daemonPort);
  [browser, shell] = await Promise.all([launchBrowser(executablePath()), launchShell(dirs.shellEnv)]);
});
test.after(async () => {
  await browser?.close();
  await shell?.stop();
  await runCli(['daemon', 'stop'], { env: dirs.shellEnv });
  dirs.cleanup();
});

const stored = (page: any): Promise<any> => page.evaluate("JSON.parse(sessionStorage.getItem('svc.session') ?? 'null')");
const signedIn = (page: any) => page.waitForSelector('nav.nav', { timeout: 20_000 });
const cspViolations = (console: string[]) => console.filter((line) => /Content Security Policy|Refused to/i.test(line));

test('"Start the daemon" moves the page to the daemon through the shell, without a reload', async () => {
  const { context, page, console } = await openPage(browser, shell.line.url);
  await signedIn(page);
  await page.evaluate('window.__notReloaded = true');
  await page.click('text=Start the daemon');
  await page.waitForSelector('aside.banner', { state: 'detached', timeout: 30_000 });
  const session = await stored(page);
  assert.is(session.role, 'daemon');
  assert.is(session.baseUrl, `http://127.0.0.1:${daemonPort}`);
  assert.is(await page.evaluate('window.__notReloaded'), true, 'the page took the new token without a reload');
  await waitFor(async () => (await page.evaluate(`fetch(${JSON.stringify(session.baseUrl + '/api/health')}, { headers: { authorization: 'Bearer ${session.token}' } }).then((r) => r.status)`)) === 200, 5000, 'the page to reach the daemon');
  assert.equal(cspViolations(console), []);
  await screenshot(page, 'window-home-daemon');
  await context.close();
});

test.run();
