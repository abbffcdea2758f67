/**
 * The Selected answers page in Chromium against `svc window`, whose OpenAI
 * connection is a loopback fake model speaking the real SSE wire format: a
 * refusal is placed beside its field; a preview shows the exact request and
 * its SHA-256, which is the hash the backend stores and the model receives;
 * Send streams the answer in, and its citation opens the reader at the
 * quoted passage; an answer citing text outside the selection is shown
 * unvalidated, saying which citation did not match, with no citation links.
 * axe-core on each state; screenshots (light, dark, 800 px wide).
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

const path = () => `/evidence/${w.projectId}/answers`;
const stored = async () => (await w.lib('GET', `/api/evidence/projects/${w.projectId}/answers?expected_vault_id=${w.vaultId}`)).answers as any[];

/** Choose one whole page of a file, an instruction and the fake OpenAI connection. */
async function choose(page: any, file: { file_id: string }, pages: string, instruction: string) {
  await page.locator(`#file-${file.file_id}-pages`).fill(pages);
  await page.locator('#answer-instruction').fill(instruction);
  await page.locator('#answer-choices-connection').selectOption('api_key:openai');
  await page.locator('#answer-choices-model').fill('gpt-test');
}

test('a refusal is shown beside its field in the service\'s words (an empty instruction)', async () => {
  const { page, context } = await w.open(path());
  try {
    await choose(page, w.files.text, '1', '');
    await page.getByRole('button', { name: 'Preview the request' }).click();
    const beside = page.locator('#answer-instruction-error');
    await beside.waitFor();
    assert.match(await beside.textContent(), /instruction/i);
    assert.is(await page.locator('#preview-sha').count(), 0, 'no preview after a refusal');
    assert.is((await stored()).length, 0);
  } finally {
    await context.close();
  }
});

test('preview shows the request and the hash the backend keeps; Send streams a cited answer whose citation opens the reader at the passage', async () => {
  w.model.behaviour = 'valid';
  const { page, context } = await w.open(path(), { bypassCSP: true });
  try {
    await page.locator('.counters').waitFor();
    assert.match(await page.locator('.counters').textContent(), /0 \/ 5 files/);
    assert.equal(await seriousViolations(page), [], 'axe-core on the chooser');
    await choose(page, w.files.text, '1', 'What helps memory?');
    assert.match(await page.locator('.counters').textContent(), /1 \/ 5 files.*1 \/ 12 distinct pages.*1 \/ 24 segments/);
    await page.getByRole('button', { name: 'Preview the request' }).click();
    const shown = (await page.locator('#preview-sha').textContent()).trim();
    assert.match(shown, /^[0-9a-f]{64}$/);
    const preview = page.locator('.answer-preview');
    assert.match(await preview.textContent(), /Sleep helps memory consolidation in adults\./, 'the source text is shown');
    assert.match(await preview.textContent(), /What helps memory\?/);
    assert.match(await preview.textContent(), /OpenAI.*model gpt-test/);
    await screenshot(page, 'answers-preview');
    assert.equal(await seriousViolations(page), [], 'axe-core on the preview');

    await page.getByRole('button', { name: 'Send this request' }).click();
    const link = page.locator('a.citation').first();
    await link.waitFor({ timeout: 30_000 });
    const [saved] = await stored();
    assert.is(saved.request_sha256, shown, 'the backend stored the hash the page showed');
    assert.is(saved.state, 'succeeded');
    assert.is(saved.validated, true);
    const sent = JSON.parse(w.model.requests.at(-1)!.body.messages.find((m: any) => m.role === 'user').content);
    assert.is(sent.request_sha256, shown, 'the model received the request with that hash');
    assert.match(page.url(), new RegExp(`answer=${saved.answer_id}`));
    await screenshot(page, 'answers-cited');
    assert.equal(await seriousViolations(page), [], 'axe-core on the cited answer');

    // The citation's passage, in page codepoints, is the quote on the page the reader shows.
    const answer = (await w.lib('GET', `/api/evidence/projects/${w.projectId}/answers/${saved.answer_id}?expected_vault_id=${w.vaultId}`)).answer;
    const c = answer.output.result.sections[0].items[0].citations[0];
    const source = answer.request.sources.find((s: any) => s.source_id === c.source_id);
    const [start, end] = [source.start_codepoint + c.start, source.start_codepoint + c.end];
    const reader = await w.lib('GET', `/api/evidence/projects/${w.projectId}/reader/${source.file_id}?expected_vault_id=${w.vaultId}&version_id=${source.version_id}&page=${source.page}`);
    assert.is([...reader.text].slice(start, end).join(''), c.quote);
    await link.click();
    await page.waitForURL((u: URL) => u.pathname.endsWith(`/files/${source.file_id}`));
    const landed = new URL(page.url());
    assert.is(landed.pathname, `/evidence/${w.projectId}/files/${source.file_id}`);
    assert.is(landed.searchParams.get('page'), String(source.page));
    assert.is(landed.searchParams.get('passage'), `${start}-${end}`);
  } finally {
    await context.close();
  }
});

test('an answer citing text outside the selection is shown unvalidated, saying which citation did not match, with no citation links', async () => {
  w.model.behaviour = 'bad_citation';
  const { page, context } = await w.open(path(), { bypassCSP: true });
  try {
    await choose(page, w.files.pdf, '2', 'What does page two say?');
    await page.getByRole('button', { name: 'Preview the request' }).click();
    await page.getByRole('button', { name: 'Send this request' }).click();
    const box = page.locator('#unvalidated');
    await box.waitFor({ timeout: 30_000 });
    const said = await box.textContent();
    assert.match(said, /Unvalidated\./);
    assert.match(said, /citation quote not found/);
    assert.match(said, /citation 1 of item 1 in section 1, S01 words that are not there/);
    assert.is(await page.locator('a.citation').count(), 0, 'no citation links');
    const bad = (await stored()).at(-1);
    assert.is(bad.validated, false);
    const answer = (await w.lib('GET', `/api/evidence/projects/${w.projectId}/answers/${bad.answer_id}?expected_vault_id=${w.vaultId}`)).answer;
    assert.is(answer.state, 'failed');
    assert.is(answer.output.validated, false);
    await screenshot(page, 'answers-unvalidated');
    assert.equal(await seriousViolations(page), [], 'axe-core on the unvalidated answer');
  } finally {
    await context.close();
  }
});

test('history lists both answers; narrow and dark the cited answer still reads and downloads as HTML and ZIP', async () => {
  const { page, context } = await w.open(`${path()}?tab=history`, { width: 800, height: 900, colorScheme: 'dark' });
  try {
    const rows = page.locator('.answer-history tbody tr');
    await rows.first().waitFor();
    assert.is(await rows.count(), 2);
    assert.match(await rows.nth(0).textContent(), /succeeded.*validated/);
    assert.match(await rows.nth(1).textContent(), /failed.*unvalidated/);
    await screenshot(page, 'answers-history-dark-narrow');
    await rows.nth(0).locator('a').click();
    await page.locator('a.citation').first().waitFor();
    await screenshot(page, 'answers-cited-dark-narrow');
    for (const [button, name] of [['Download as HTML', 'selected-answer.html'], ['Download as ZIP', '.zip']]) {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
      assert.ok(file.suggestedFilename().endsWith(name), file.suggestedFilename());
    }
  } finally {
    await context.close();
  }
});

test.run();
