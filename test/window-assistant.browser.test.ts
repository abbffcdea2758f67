/**
 * The Assistant page in Chromium against `svc window`, whose agent CLI is the
 * fake that emits real stream-json lines and asks for permission through
 * the relay (`svc mcp --permission-relay`), as Claude Code does: a new
 * conversation bound to the agent CLI with a model and an effort from the
 * composer choices (unavailable connections disabled, their reason shown);
 * a turn whose permission request appears on the page, is allowed there, and
 * lets the agent run the tool — checked against what the backend stored;
 * the conversation found by searching its title. axe-core and screenshots.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { screenshot, seriousViolations } from './_window.js';
import { startAnswersWindow, type AnswersWindow } from './_window-answers.js';

const { test, executablePath } = browserTests();

let w: AnswersWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startAnswersWindow(executablePath());
});
test.after(async () => w?.close());

test('a new conversation on the agent CLI: a permission request is allowed from the page and the agent runs the tool', async () => {
  const { page, context } = await w.open('/assistant', { bypassCSP: true });
  try {
    await page.getByRole('heading', { name: 'New conversation' }).waitFor();
    assert.match(await page.locator('.conversations').textContent(), /No conversations yet/);
    const status = await w.api('GET', '/api/assistant/status');
    const unavailable = status.composer_choices.connections.filter((c: any) => !c.available);
    assert.ok(unavailable.length > 0, 'some connection is unavailable here');
    const off = unavailable[0];
    assert.is(await page.locator(`#new-choices-connection option[value="${off.runtime}:${off.provider}"]`).isDisabled(), true, 'an unavailable connection is disabled');
    await page.locator('.unavailable-connections summary').click();
    assert.ok((await page.locator('.unavailable-connections').textContent()).includes(off.reason), 'its reason is shown');
    assert.equal(await seriousViolations(page), [], 'axe-core on the new conversation form');
    await screenshot(page, 'assistant-new');

    await page.locator('#conversation-title').fill('Relay check');
    await page.locator('#new-choices-connection').selectOption('agent_cli:agent_code');
    await page.locator('#new-choices-model').fill('sonnet');
    await page.locator('#new-choices-effort').selectOption('high');
    await page.getByRole('button', { name: 'Start the conversation' }).click();
    await page.getByRole('heading', { name: 'Relay check' }).waitFor();
    const id = Number(new URL(page.url()).searchParams.get('c'));
    const bound = await w.api('GET', `/api/assistant/sessions/${id}`);
    assert.equal([bound.choices.runtime, bound.choices.provider, bound.choices.model, bound.choices.effort], ['agent_cli', 'agent_code', 'sonnet', 'high']);

    await page.locator('#message-text').fill('PERMIT please');
    await page.getByRole('button', { name: 'Send' }).click();
    const prompt = page.locator('.permission');
    await prompt.waitFor({ timeout: 30_000 });
    assert.match(await prompt.textContent(), /The agent asks to use Bash/);
    assert.match(await prompt.textContent(), /echo hi/);
    await screenshot(page, 'assistant-permission');
    assert.equal(await seriousViolations(page), [], 'axe-core with a permission prompt');
    await prompt.getByRole('button', { name: 'Allow' }).click();

    await page.locator('.message-assistant', { hasText: 'ran Bash with {"command":"echo hi"}' }).waitFor({ timeout: 30_000 });
    const stored = await w.api('GET', `/api/assistant/sessions/${id}`);
    const reply = stored.messages.filter((m: any) => m.role === 'assistant').at(-1);
    assert.ok(reply.content.endsWith('ran Bash with {"command":"echo hi"}'), reply.content);
    assert.ok((await page.locator('.messages').textContent()).includes('the response said agent-reported-model'), 'the model the response reported is shown');
    await screenshot(page, 'assistant-turn');
  } finally {
    await context.close();
  }
});

test('conversations are found by searching their titles and export as Markdown; narrow and dark', async () => {
  const { page, context } = await w.open('/assistant', { width: 800, height: 900, colorScheme: 'dark' });
  try {
    await page.locator('.conversation-list a', { hasText: 'Relay check' }).waitFor();
    await page.locator('#conversation-search').fill('nothing like it');
    await page.getByText('No conversation has that in its title').waitFor();
    await page.locator('#conversation-search').fill('relay');
    await page.locator('.conversation-list a', { hasText: 'Relay check' }).click();
    await page.getByRole('heading', { name: 'Relay check' }).waitFor();
    await screenshot(page, 'assistant-dark-narrow');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as Markdown' }).click()]);
    assert.match(file.suggestedFilename(), /^svc-chat-\d+\.md$/);
    assert.match(await file.path().then((p: string) => import('node:fs').then((fs) => fs.readFileSync(p, 'utf8'))), /ran Bash/);
  } finally {
    await context.close();
  }
});

test.run();
