/**
 * A run's AI summary in the window, in Chromium against `svc window --no-open
 * --json` whose arXiv and OpenAI-compatible model are loopback servers: asked for from the
 * Search page with a focus, it is shown on the run's page once written, as the
 * model's and unchecked, with who wrote it — as the backend stored it.
 */
import { browserTests } from './_chromium.js';
import * as assert from 'uvu/assert';
import { startSummaryModel, SUMMARY, type SummaryModel } from './_fake-model.js';
import { backendRequest, screenshot } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let model: SummaryModel;
let w: PagesWindow;

test.before(async () => {
  model = await startSummaryModel('sk-window-test-key');
  w = await startPagesWindow(executablePath(), { SVC_AI_OPENAI_URL: model.url });
});
test.after(async () => {
  await w?.close();
  await model?.close();
});

test('a dive that asks for an AI summary shows it on its page as the model\'s, unchecked, with who wrote it; the focus typed reached the model', async () => {
  await w.api('PUT', '/api/settings/ai', { settings: { provider: 'openai', model: 'gpt-asked', summaries_enabled: true, max_output_tokens: 512 } });
  await w.api('PUT', '/api/credentials/openai_api_key', { value: 'sk-window-test-key' });
  const { page, context } = await w.open('/search?mode=dive&source=arxiv&q=testing&max=10');
  try {
    await page.getByLabel('Write a short AI summary of what the run finds').check();
    await page.getByLabel('What the summary should focus on').fill('field studies first');
    await page.getByRole('button', { name: 'Start the dive' }).click();
    await page.waitForURL(/\/runs\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const section = page.locator('section.ai-summary');
    await section.locator('.ai-text').waitFor({ timeout: 20_000 });
    const lane = (await backendRequest(w.session, 'GET', `/api/executions/${id}`)).json().ai_lane;
    assert.equal([lane.used, lane.summary, lane.instructions_given], [true, SUMMARY, true]);
    const shown = await section.textContent();
    assert.match(shown, lane.caveat, "the service's caveat is shown with the summary");
    assert.match(shown, `by openai / ${lane.model}`);
    assert.match(await section.locator('.ai-text').innerText(), 'Themes: chemical and communicating ecology.');
    assert.ok(model.requests.some((r) => r.raw.includes('field studies first')), 'the focus typed was sent with the summary request');
    await screenshot(page, 'run-ai-summary');
  } finally {
    await context.close();
  }
});

test.run();
