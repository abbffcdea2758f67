/**
 * The watchdog page in Chromium against `svc window` (a fallback backend):
 * with nothing wrong it says so and where to look meanwhile; a routine that
 * asks OpenAlex without its key (created through the API) raises a broken
 * finding, shown with its routine, the service's sentence and what to do;
 * Mute with a note moves it to the muted findings with when and why, Unmute
 * brings it back — each checked against what the backend stored. axe-core on
 * the page, empty and with findings; screenshots in test-output/screenshots/.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { routineBody } from './_scheduler.js';
import { screenshot, seriousViolations } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let w: PagesWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startPagesWindow(executablePath());
});
test.after(async () => w?.close());

const stored = async () => w.api('GET', '/api/watchdog?include_muted=true');

test('nothing wrong: the page says so and where to look meanwhile (axe-core passes it)', async () => {
  assert.is((await stored()).findings.length, 0, 'a fresh data directory has no finding');
  const { page, context } = await w.open('/watchdog', { bypassCSP: true });
  try {
    await page.getByText('Nothing looks wrong.').waitFor();
    assert.match(await page.locator('.watchdog-summary').textContent(), /0 alarms/);
    assert.is(await page.locator('.empty a[href="/runs"]').count(), 1);
    await screenshot(page, 'watchdog-empty');
    assert.equal(await seriousViolations(page), [], 'axe-core on the empty page');
  } finally {
    await context.close();
  }
});

test('a routine without its key is a broken finding; Mute with a note moves it apart with when and why; Unmute brings it back', async () => {
  const routine = await w.api('POST', '/api/routines', { ...routineBody({ name: 'needs openalex' }), parameters: { repositories: ['openalex'], query: 'ecology', max_results: 2, window_days: 7 } });
  const finding = (await stored()).findings.find((f: any) => f.subject.kind === 'routine' && f.subject.id === routine.id);
  assert.ok(finding, 'the service raises a finding for the routine');

  const { page, context } = await w.open('/watchdog', { bypassCSP: true });
  try {
    const card = page.locator(`.finding[data-key="${finding.key}"]`);
    await card.waitFor();
    assert.match(await card.locator('.chip').textContent(), /Broken/);
    assert.match(await card.locator('.finding-subject').textContent(), /Routine:\s*needs openalex/);
    assert.is((await card.locator('h3').textContent()).trim(), finding.title, 'the service’s sentence');
    assert.match(await card.locator('.finding-todo').textContent(), /svc credentials set openalex_api_key/);
    assert.is(await page.locator('#muted-title').count(), 0, 'nothing muted yet');
    await screenshot(page, 'watchdog-finding');
    assert.equal(await seriousViolations(page), [], 'axe-core with a finding');

    await card.getByRole('button', { name: 'Mute…' }).click();
    await page.getByLabel('Why is it acknowledged? (optional)').fill('the key comes on Monday');
    await card.getByRole('button', { name: 'Mute', exact: true }).click();
    await page.locator('.status-line', { hasText: 'Muted' }).waitFor();
    const muted = page.locator('.findings-muted .finding', { hasText: finding.title });
    await muted.waitFor();
    assert.match(await muted.locator('.finding-muted').textContent(), /Muted .*the key comes on Monday/);
    assert.match(await page.locator('.findings').first().textContent(), /every current finding is muted/, 'the alarms say none is left');
    const after = (await stored()).findings.find((f: any) => f.key === finding.key);
    assert.equal([after.muted, after.mute_note], [true, 'the key comes on Monday'], 'the backend stored the mute and its note');
    assert.ok(after.muted_at_utc);
    assert.is((await w.api('GET', '/api/watchdog')).alarm_total, 0, 'out of the alarm total');
    await page.setViewportSize({ width: 800, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'watchdog-muted-800-dark');
    assert.equal(await seriousViolations(page), [], 'axe-core, dark, with a muted finding');

    await muted.getByRole('button', { name: 'Unmute' }).click();
    await page.locator('.status-line', { hasText: 'Unmuted' }).waitFor();
    await page.locator('#muted-title').waitFor({ state: 'detached' });
    await page.locator(`.findings .finding[data-key="${finding.key}"] button`, { hasText: 'Mute…' }).waitFor();
    const back = (await stored()).findings.find((f: any) => f.key === finding.key);
    assert.is(back.muted, false, 'the backend has it unmuted');
    assert.is((await w.api('GET', '/api/watchdog')).alarm_total, 1, 'in the alarm total again');
  } finally {
    await context.close();
  }
});

test.run();
