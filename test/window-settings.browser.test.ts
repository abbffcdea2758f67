/**
 * Settings in headless Chromium against `svc window --no-open --json` (a real
 * shell and its fallback backend; OpenAI at a loopback stub): a refused value
 * is shown beside its field in the service's words and nothing is stored;
 * only the values changed are sent, and the others stay as stored; the AI
 * tab lists the provider's models for the stored key and says whether each
 * agent CLI is found; the embeddings tab shows its lanes. Checked against
 * what the backend stored; axe-core on every tab; screenshots.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { startAiStub, type AiStub } from './_ai-stub.js';
import { startSmtp, type SmtpPeer } from './_delivery.js';
import { backendRequest, openPage, screenshot, seriousViolations, startWindow, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
let openai: AiStub;
let smtp: SmtpPeer;
const AI_KEY = 'sk-settings-window-93ab';

test.before(async () => {
  [openai, smtp] = await Promise.all([startAiStub(AI_KEY, ['gpt-test-large', 'gpt-test-mini']), startSmtp()]);
  win = await startWindow(executablePath(), { env: { SVC_AI_OPENAI_URL: openai.url }, closes: [openai, smtp] });
});
test.after(async () => {
  await win?.close();
});

const group = (name: string) => win.api('GET', `/api/settings/${name}`);

test('a refusal is shown beside its field and nothing is stored; only what changed is sent, the rest stays as stored', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/settings?tab=ai'));
  try {
    const sent: any[] = [];
    page.on('request', (r: any) => r.method() === 'PUT' && sent.push(JSON.parse(r.postData() ?? 'null')));
    const tokens = page.getByLabel('Most tokens per answer');
    await tokens.waitFor({ timeout: 20_000 });
    const before = (await group('ai')).settings;
    await tokens.fill('3');
    await page.getByLabel('Write AI summaries into reports').check();
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('#ai-max_output_tokens-error');
    await error.waitFor();
    assert.is(await error.textContent(), 'Input should be between 64 and 65536');
    assert.is(await tokens.getAttribute('aria-invalid'), 'true');
    assert.equal(sent, [{ settings: { summaries_enabled: true, max_output_tokens: 3 } }], 'only the two changed values were sent');
    assert.equal((await group('ai')).settings, before, 'nothing stored: the refusal is all or nothing');
    await screenshot(page, 'settings-refused');

    await tokens.fill('2048');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved 2 changes.').waitFor();
    assert.equal((await group('ai')).settings, { ...before, summaries_enabled: true, max_output_tokens: 2048 });

    // Runs: execution's route takes both values; a refused one is shown beside it too.
    await page.getByRole('tab', { name: 'Runs', exact: true }).click();
    await page.getByLabel('Runs at once').fill('99');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#execution-max_concurrent_executions-error').waitFor();
    assert.match(await page.locator('#execution-max_concurrent_executions-error').textContent(), /32/);
    assert.is((await group('execution')).max_concurrent_executions, 3);
  } finally {
    await context.close();
  }
});

test('AI: the provider chosen among svc\'s connections, its models listed for the stored key, the agent CLIs\' status', async () => {
  assert.is((await backendRequest(win.session, 'PUT', '/api/credentials/openai_api_key', { body: { value: AI_KEY } })).status, 200);
  const { context, page } = await openPage(win.browser, await win.url('/settings?tab=ai'));
  try {
    await page.getByLabel('Provider').selectOption('openai');
    await page.getByRole('button', { name: "List the provider's models" }).click();
    await page.getByText('2 models listed').waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('#ai-model-list option').evaluateAll((os: any[]) => os.map((o) => o.value)), ['gpt-test-large', 'gpt-test-mini']);
    assert.is(openai.seen.at(-1), `Bearer ${AI_KEY}`);
    await page.getByLabel('Model').fill('gpt-test-mini');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved 2 changes.').waitFor();
    const ai = (await group('ai')).settings;
    assert.equal([ai.provider, ai.model], ['openai', 'gpt-test-mini']);
    const cli = await win.api('GET', '/api/settings/ai/cli-status');
    const row = page.locator('tr', { hasText: cli.clis[0].label });
    assert.match(await row.textContent(), cli.clis[0].found ? /found at/ : /not found/);
    await screenshot(page, 'settings-ai');

    await page.getByRole('tab', { name: 'Embeddings', exact: true }).click();
    await page.getByRole('heading', { name: 'Lanes' }).waitFor();
    const emb = (await group('embeddings')).capabilities;
    for (const p of emb.providers) assert.match(await page.locator('#lanes ~ .table-wrap tbody').textContent(), p.note);
    await screenshot(page, 'settings-embeddings');
  } finally {
    await context.close();
  }
});

test('E-mail: a test e-mail goes to the default recipient with the stored settings, and the page names the message the server accepted', async () => {
  await win.api('PUT', '/api/settings/email', { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org', to_address: 'reader-7kq@example.org' } });
  const { context, page } = await openPage(win.browser, await win.url('/settings?tab=email'));
  try {
    await page.getByRole('button', { name: 'Send a test e-mail' }).click({ timeout: 20_000 });
    const said = page.getByText(/^The test e-mail was sent \(message id .+\)\.$/);
    await said.waitFor();
    assert.is(smtp.messages.length, 1);
    assert.equal(smtp.messages[0]!.to, ['reader-7kq@example.org']);
    const messageId = /\(message id (.+)\)\.$/.exec(await said.textContent())![1]!;
    assert.ok(smtp.messages[0]!.raw.toString('utf8').includes(messageId), 'the id said is the one the mail server received');
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation on any tab; dark and 800 px wide screenshots', async () => {
  const { context, page } = await openPage(win.browser, await win.url('/settings'), { bypassCSP: true });
  try {
    for (const tab of ['AI', 'E-mail', 'Embeddings', 'Cloud backup', 'Storage', 'Notifications', 'Assistant', 'Runs']) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await page.locator('.settings-form').first().waitFor({ timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      assert.equal(await seriousViolations(page), [], tab);
    }
  } finally {
    await context.close();
  }
  const narrow = await openPage(win.browser, await win.url('/settings?tab=email'), { width: 800, height: 900 });
  await narrow.page.locator('.settings-form').waitFor({ timeout: 20_000 });
  await screenshot(narrow.page, 'settings-email-narrow');
  await narrow.context.close();
  const dark = await win.browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
  const darkPage = await dark.newPage();
  await darkPage.goto(await win.url('/settings?tab=ai'));
  await darkPage.locator('.settings-form').waitFor({ timeout: 20_000 });
  await screenshot(darkPage, 'settings-ai-dark');
  await dark.close();
});

test.run();
