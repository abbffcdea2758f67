/**
 * Sources and keys in headless Chromium against `svc window --no-open
 * --json` (a real shell and its fallback backend; OpenAI at a loopback stub):
 * each source's state as the service answers it; a key stored from the page
 * makes its source ready and is never readable back — not in the DOM, an
 * input's value or sessionStorage, after saving or after a reload — and is
 * erased from the page; a typed AI key is checked with its provider before it
 * is stored; a refused contact e-mail shows why beside its field. Checked
 * against what the backend stored; axe-core; screenshots light, dark, narrow.
 */
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { waitFor } from './_setup.js';
import { startAiStub, type AiStub } from './_ai-stub.js';
import { openPage, screenshot, seriousViolations, startWindow, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
let openai: AiStub;
const KEY = 'oa-key-7f3a9c2e51d84b06';
const AI_KEY = 'sk-test-window-4c1d77e0a9';

test.before(async () => {
  openai = await startAiStub(AI_KEY, ['gpt-test-mini']);
  win = await startWindow(executablePath(), { env: { SVC_AI_OPENAI_URL: openai.url }, closes: [openai] });
});
test.after(async () => {
  await win?.close();
});

/** A key's chip once the backend holds it: the whole word, since the chip of a key not yet stored says "not stored". */
const STORED = /^stored$/;
const status = async (name: string) => (await win.api('GET', '/api/credentials')).credentials.find((c: any) => c.name === name).status;
/** Everything of the page a script could read back: the markup, every field's value, sessionStorage. */
const readable = (page: any): Promise<string> =>
  page.evaluate(`document.documentElement.outerHTML + [...document.querySelectorAll('input, textarea')].map((e) => e.value).join('|') + JSON.stringify(Object.entries(sessionStorage))`);

test('a stored key makes its source ready and is never readable back in the page, after saving or a reload; erase', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/sources'));
  try {
    const card = page.locator('li[data-source="openalex"]');
    await card.locator('.chip', { hasText: 'needs a key' }).waitFor({ timeout: 20_000 });
    assert.match(await card.textContent(), /Needs the openalex_api_key credential/, "the service's sentence");
    assert.match(await page.locator('li[data-source="microsoft_academic"]').textContent(), /retired/);
    assert.match(await page.locator('li[data-source="biorxiv"]').textContent(), /dates required/);
    await screenshot(page, 'sources-needs-key');

    const field = card.getByRole('textbox', { name: 'OpenAlex API key' });
    await field.fill(KEY);
    assert.is(await field.getAttribute('type'), 'password');
    await card.getByRole('button', { name: 'Store' }).click();
    await card.locator('.chip', { hasText: 'ready' }).waitFor();
    await card.locator('.chip', { hasText: STORED }).waitFor();
    assert.is(await status('openalex_api_key'), 'present', 'the backend stored it');
    assert.match(fs.readFileSync(path.join(win.dirs.stateDir, 'credentials.json'), 'utf8'), new RegExp(KEY), 'the value itself, in the owner-only file');
    assert.is(await field.inputValue(), '', 'the field is emptied');
    assert.not.ok((await readable(page)).includes(KEY), 'after saving, nothing the page holds has the key');
    assert.is(await card.getByRole('button', { name: 'Replace' }).count(), 1, 'a stored key is replaced, not shown');
    await screenshot(page, 'sources-key-stored');

    await page.reload({ waitUntil: 'load' });
    await card.locator('.chip', { hasText: STORED }).waitFor({ timeout: 20_000 });
    assert.not.ok((await readable(page)).includes(KEY), 'after a reload neither');

    await card.getByRole('button', { name: 'Erase' }).click();
    await card.locator('.chip', { hasText: 'needs a key' }).waitFor();
    assert.is(await status('openalex_api_key'), 'absent', 'erased in the backend');
  } finally {
    await context.close();
  }
});

test('a typed AI key is checked with its provider before it is stored; a refused contact e-mail says why beside the field', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/sources'));
  try {
    const form = page.getByRole('form', { name: 'OpenAI API key' });
    await form.getByRole('textbox', { name: 'OpenAI API key' }).fill('sk-wrong');
    await form.getByRole('button', { name: 'Check with the provider' }).click();
    await form.getByText(/\(invalid\)/).waitFor({ timeout: 20_000 });
    assert.is(await status('openai_api_key'), 'absent', 'a check stores nothing');
    await form.getByRole('textbox', { name: 'OpenAI API key' }).fill(AI_KEY);
    await form.getByRole('button', { name: 'Check with the provider' }).click();
    await form.getByText('OpenAI accepted the key.').waitFor();
    assert.is(openai.seen.at(-1), `Bearer ${AI_KEY}`, 'the typed key went to the provider');
    assert.is(await status('openai_api_key'), 'absent');
    // The chip says "stored" once the PUT has answered, not at the click: the PUT is held back until the
    // chip is seen still saying "not stored". (A chip with "stored" anywhere in it was "not stored" already.)
    let releaseStore!: () => void;
    const storeHeldBack = new Promise<void>((resolve) => (releaseStore = resolve));
    let storeAsked!: () => void;
    const storeInFlight = new Promise<void>((resolve) => (storeAsked = resolve));
    await page.route(/\/api\/credentials\/openai_api_key$/, async (route: any) => {
      if (route.request().method() !== 'PUT') return route.continue();
      storeAsked();
      await storeHeldBack;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Store' }).click();
    await storeInFlight;
    assert.is(await form.locator('.key-head .chip').textContent(), 'not stored', 'not said stored while the backend has not answered');
    releaseStore();
    await form.locator('.chip', { hasText: STORED }).waitFor();
    assert.is(await status('openai_api_key'), 'present');
    assert.not.ok((await readable(page)).includes(AI_KEY));

    await page.getByRole('textbox', { name: 'Contact e-mail' }).fill('not an address');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('#contact-email-error');
    await error.waitFor();
    assert.ok((await error.textContent()).length > 0);
    assert.is((await win.api('GET', '/api/settings/email')).settings.contact_email, '', 'nothing stored');
    await screenshot(page, 'sources-refused-email');
    await page.getByRole('textbox', { name: 'Contact e-mail' }).fill('me@example.org');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#contact-email-error').waitFor({ state: 'detached' });
    // The refusal goes as the save starts; the backend has the address once the save's answer is in.
    const stored = async () => (await win.api('GET', '/api/settings/email')).settings.contact_email;
    await waitFor(async () => (await stored()) === 'me@example.org', 15_000, 'the contact e-mail stored');
    assert.is(await page.locator('#contact-email-error').count(), 0, 'no refusal beside the field');
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation; screenshots dark and 800 px wide', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/sources'), { bypassCSP: true });
  await page.locator('li[data-source="arxiv"]').waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  assert.equal(await seriousViolations(page), []);
  await context.close();
  const narrow = await openPage(win.browser, await win.url('/sources'), { width: 800, height: 900 });
  await narrow.page.locator('li[data-source="arxiv"]').waitFor({ timeout: 20_000 });
  await screenshot(narrow.page, 'sources-narrow');
  await narrow.context.close();
  const dark = await win.browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
  const darkPage = await dark.newPage();
  await darkPage.goto(await win.url('/sources'));
  await darkPage.locator('li[data-source="arxiv"]').waitFor({ timeout: 20_000 });
  await screenshot(darkPage, 'sources-dark');
  await dark.close();
});

test.run();
