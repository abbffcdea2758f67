/**
 * People followed in headless Chromium against `svc window --no-open --json`
 * (a real shell and its fallback backend) over a corpus seeded with two
 * papers: a bad ORCID is refused beside its field in the service's words and
 * nothing is stored; a person added by name only shows the service's
 * warning, their match is a "name only" chip whose meaning is one click away
 * and says it is a string match; the profile exports as a file and imports
 * back; "follow from a routine" links to /routines/new?profile=<id>. Each
 * state is checked against what the backend stored; axe-core on both pages;
 * screenshots light, dark and 800 px wide.
 */
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { browserTests } from './_chromium.js';
import { makeRecord, seed } from './_corpus.js';
import { openPage, screenshot, seriousViolations, startWindow, windowDirs, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
const dirs = windowDirs();
const BAD_ORCID = '0000-0002-1825-0098'; // Josiah Carberry's iD with its check digit changed

test.before(async () => {
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'warn', sink: () => {} }) });
  seed(ctx, [
    makeRecord(1, { title: 'Soil microbes under drought', authors: [{ name: 'Ada Quillfeather' }] }),
    makeRecord(2, { title: 'Root exudates and rain', authors: [{ name: 'Bram Otterly' }] }),
  ]);
  ctx.close();
  win = await startWindow(executablePath(), { dirs });
});
test.after(async () => {
  await win?.close();
});

const stored = async () => (await win.api('GET', '/api/profiles')).profiles;

test('a bad ORCID is refused beside its field in the service\'s words; nothing is stored', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/profiles'));
  try {
    await page.getByText('You follow nobody yet.').waitFor({ timeout: 20_000 });
    await screenshot(page, 'profiles-empty');
    await page.getByLabel('Name', { exact: true }).fill('Josiah Carberry');
    await page.getByLabel('ORCID iD (optional)').fill(BAD_ORCID);
    await page.getByRole('button', { name: 'Follow' }).click();
    const error = page.locator('#p-orcid-error');
    await error.waitFor();
    assert.match(await error.textContent(), /valid check digit/);
    assert.is(await page.getByLabel('ORCID iD (optional)').getAttribute('aria-invalid'), 'true');
    assert.is(await page.evaluate('document.activeElement.id'), 'p-orcid', 'the refused field takes the focus');
    assert.match(await page.locator('#p-orcid-hint').textContent(), /check digit/, 'the page says what a check digit is');
    assert.not.match(await page.textContent('main'), /"loc"|\{"detail"/, 'never raw JSON');
    assert.equal(await stored(), [], 'nothing was stored');
    await screenshot(page, 'profiles-refused-orcid');
  } finally {
    await context.close();
  }
});

test('a person by name only: the service\'s warning, a "name only" chip with its meaning one click away, export and import, follow from a routine', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/profiles'));
  try {
    await page.getByLabel('Name', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Name', { exact: true }).fill('Ada Quillfeather');
    await page.getByLabel('Affiliations, one per line').fill('Institute of Soil\nRoot Lab');
    await page.getByLabel('Other names, one per line').fill('Ada Featherquill');
    await page.getByRole('button', { name: 'Follow' }).click();
    await page.getByRole('link', { name: 'Ada Quillfeather' }).waitFor();
    const [profile] = await stored();
    assert.equal([profile.name, profile.orcid, profile.affiliations, profile.aliases], ['Ada Quillfeather', null, ['Institute of Soil', 'Root Lab'], ['Ada Featherquill']]);
    assert.match(await page.locator('.profile-row').textContent(), /string match, not an identity claim/, "the service's basis warning");
    await screenshot(page, 'profiles-list');

    await page.getByRole('link', { name: 'Ada Quillfeather' }).click();
    await page.waitForURL(new RegExp(`/profiles/${profile.id}$`));
    await page.locator('.paper-title', { hasText: 'Soil microbes under drought' }).waitFor();
    const matches = await win.api('GET', `/api/profiles/${profile.id}/matches`);
    assert.equal(await page.locator('.paper-title').allTextContents(), matches.matches.map((m: any) => m.title), 'the matches the backend answers');
    assert.is(matches.matches[0].basis, 'name_only');
    const chip = page.locator('.paper .basis-chip').first();
    assert.is((await chip.textContent()).trim(), 'name only');
    assert.match(await page.locator('.paper').first().textContent(), /string match, not an identity claim/);
    await chip.click();
    assert.is(new URL(page.url()).hash, '#basis-name_only');
    assert.is(await page.locator('#basis-name_only dd').textContent(), matches.what_a_basis_means.name_only, "one click shows the service's glossary entry");
    assert.is(await page.getByRole('link', { name: 'Follow from a routine' }).getAttribute('href'), `/routines/new?profile=${profile.id}`);
    await screenshot(page, 'profile-matches');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    assert.match(download.url(), /^blob:/);
    const file = path.join(dirs.root, 'exported.json');
    fs.writeFileSync(file, fs.readFileSync(await download.path()));
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(exported.profile.name, 'Ada Quillfeather');

    // Import it back after removing it: the same person is followed again.
    await page.getByRole('button', { name: 'Stop following…' }).click();
    await page.getByRole('button', { name: /Stop following Ada Quillfeather/ }).click();
    await page.waitForURL(/\/profiles$/);
    await page.getByText('You follow nobody yet.').waitFor();
    assert.equal(await stored(), []);
    await page.getByLabel('Profiles file').setInputFiles(file);
    await page.getByText('Imported 1 profile').waitFor();
    await page.getByRole('link', { name: 'Ada Quillfeather' }).waitFor();
    assert.equal((await stored()).map((p: any) => [p.name, p.affiliations]), [['Ada Quillfeather', ['Institute of Soil', 'Root Lab']]]);
    // A file that is not an export says so, in words.
    const junk = path.join(dirs.root, 'junk.json');
    fs.writeFileSync(junk, JSON.stringify({ profiles: 1 }));
    await page.getByLabel('Profiles file').setInputFiles(junk);
    await page.getByText('Nothing was imported.').waitFor();
    assert.not.match(await page.textContent('main'), /\{"detail"/);
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation on either page; screenshots dark and 800 px wide', async () => {
  const [profile] = await stored();
  for (const p of ['/profiles', `/profiles/${profile.id}`]) {
    const { context, page } = await openPage(win.browser, await win.url(p), { bypassCSP: true });
    try {
      await page.locator('main h1').waitFor({ timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      assert.equal(await seriousViolations(page), [], p);
    } finally {
      await context.close();
    }
  }
  const narrow = await openPage(win.browser, await win.url(`/profiles`), { width: 800, height: 900 });
  await narrow.page.getByRole('link', { name: 'Ada Quillfeather' }).waitFor({ timeout: 20_000 });
  await screenshot(narrow.page, 'profiles-narrow');
  await narrow.context.close();
  const dark = await win.browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
  const page = await dark.newPage();
  await page.goto(await win.url(`/profiles/${profile.id}`));
  await page.locator('.paper-title').first().waitFor({ timeout: 20_000 });
  await screenshot(page, 'profile-dark');
  await dark.close();
});

test.run();
