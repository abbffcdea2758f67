/**
 * A citation of a selected answer opens the reader at its passage, in
 * Chromium against `svc window` with a loopback fake OpenAI model: the page
 * text shows exactly the quote the backend stored for that citation, outlined
 * and focused; a passage after an astral character (𝐀, one codepoint, two
 * UTF-16 units) is found at its codepoints, not its units; an address whose
 * passage is not within the page's text says it could not be shown and
 * highlights nothing in its place; a page turn drops the passage. axe-core on
 * the reader with a cited passage; screenshots, light and dark.
 */
import * as assert from 'uvu/assert';
import { TEXT } from './_answers.js';
import { browserTests } from './_chromium.js';
import { screenshot, seriousViolations } from './_window.js';
import { startAnswersWindow, type AnswersWindow } from './_window-answers.js';

const { test, executablePath } = browserTests();

let w: AnswersWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startAnswersWindow(executablePath());
  w.model.behaviour = 'valid';
});
test.after(async () => w?.close());

const V = () => `expected_vault_id=${w.vaultId}`;
const readerPath = (f: { file_id: string }, query: string) => `/evidence/${w.projectId}/files/${f.file_id}?${query}`;
const ready = (page: any, n: number) => page.waitForSelector(`[data-ready-page="${n}"]`, { timeout: 20_000 });
const readPage = (f: { file_id: string; version_id: string }, n: number) => w.lib('GET', `/api/evidence/projects/${w.projectId}/reader/${f.file_id}?${V()}&version_id=${f.version_id}&page=${n}`);

/** Send the chosen selection from the answers page; answers the saved answer's first citation with its source and page range. */
async function sendAndCite(page: any, instruction: string) {
  await page.locator('#answer-instruction').fill(instruction);
  await page.locator('#answer-choices-connection').selectOption('api_key:openai');
  await page.locator('#answer-choices-model').fill('gpt-test');
  await page.getByRole('button', { name: 'Preview the request' }).click();
  await page.getByRole('button', { name: 'Send this request' }).click();
  await page.locator('a.citation').first().waitFor({ timeout: 30_000 });
  const answerId = new URL(page.url()).searchParams.get('answer');
  const answer = (await w.lib('GET', `/api/evidence/projects/${w.projectId}/answers/${answerId}?${V()}`)).answer;
  assert.is(answer.output.validated, true);
  const c = answer.output.result.sections[0].items[0].citations[0];
  const source = answer.request.sources.find((s: any) => s.source_id === c.source_id);
  return { quote: c.quote as string, source, start: source.start_codepoint + c.start, end: source.start_codepoint + c.end };
}

test('a citation opens the reader on its page with exactly the stored quote outlined, labelled and focused', async () => {
  const { page, context } = await w.open(`/evidence/${w.projectId}/answers`, { bypassCSP: true });
  try {
    await page.locator(`#file-${w.files.text.file_id}-pages`).fill('1');
    const cited = await sendAndCite(page, 'What helps memory?');
    await page.locator('a.citation').first().click();
    await ready(page, 1);
    const mark = page.locator('.page-text #cited-passage');
    await mark.waitFor();
    assert.is(await page.locator('.page-text .cited').count(), 1, 'one element holds the passage');
    assert.is(await mark.textContent(), cited.quote, 'the highlighted text is the quote the backend stored');
    assert.is(await page.locator('.page-text').textContent(), TEXT, 'the pane’s text is still the page text (the label is not in it)');
    assert.is(await page.evaluate('document.activeElement.id'), 'cited-passage', 'focus lands on the passage');
    assert.is(await page.evaluate(`getComputedStyle(document.getElementById('cited-passage'), '::before').content`), '"cited passage"', 'labelled, not told by colour alone');
    assert.match(await page.locator('.cited-said').textContent(), `characters ${cited.start}–${cited.end}`);
    assert.equal(await seriousViolations(page), [], 'axe-core on the reader with a cited passage');
    await screenshot(page, 'reader-cited');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'reader-cited-dark');
  } finally {
    await context.close();
  }
});

test('a passage after an astral character (𝐀) is highlighted at its codepoints, beside the note it came from', async () => {
  // A passage note on "epsilon.", which follows 𝐀: its codepoint offsets are one less than its UTF-16 offsets.
  const f = w.files.text;
  const served = await readPage(f, 1);
  assert.is(served.text, TEXT);
  const unit = TEXT.indexOf('epsilon.');
  const start = [...TEXT.slice(0, unit)].length;
  assert.is(start, unit - 1, 'the astral character makes codepoints and units differ');
  const project = (await w.lib('GET', `/api/evidence/projects/${w.projectId}?${V()}`)).project;
  const anchor = { page_basis: served.page_basis, page: 1, extraction_contract: served.extraction_contract, page_sha256: served.page_sha256, start, end: start + 8, quote: 'epsilon.' };
  await w.lib('POST', `/api/evidence/projects/${w.projectId}/notes`, { expected_vault_id: w.vaultId, expected_revision: project.revision, file_id: f.file_id, version_id: f.version_id, kind: 'passage', body: 'After the bold A.', anchor });

  const { page, context } = await w.open(`/evidence/${w.projectId}/answers`, { bypassCSP: true });
  try {
    await page.getByLabel(`page 1, characters ${start}–${start + 8}`).check();
    const cited = await sendAndCite(page, 'What follows the bold A?');
    assert.equal([cited.start, cited.end, cited.quote], [start, start + 8, 'epsilon.'], 'the citation is the passage, in codepoints');
    await page.locator('a.citation').first().click();
    await ready(page, 1);
    const mark = page.locator('.page-text #cited-passage');
    await mark.waitFor();
    assert.is(await mark.textContent(), 'epsilon.');
    const before = await page.evaluate(`(() => { const r = document.createRange(); r.setStart(document.querySelector('.page-text'), 0); r.setEndBefore(document.getElementById('cited-passage')); return r.toString(); })()`);
    assert.is(before, TEXT.slice(0, unit), 'everything before it, 𝐀 included, is outside the passage');
    assert.is(await mark.locator('mark.hl').textContent(), 'epsilon.', 'the note’s own highlight shows inside it');
  } finally {
    await context.close();
  }
});

test('a passage not within the page text says it could not be shown and highlights nothing; a page turn drops the passage', async () => {
  const length = [...TEXT].length;
  for (const passage of [`70-${length + 1}`, '9-3', 'abc']) {
    const { page, context } = await w.open(readerPath(w.files.text, `page=1&passage=${passage}`));
    try {
      await ready(page, 1);
      const said = page.locator('.reader-pane .note-warn', { hasText: 'The cited passage could not be shown' });
      await said.waitFor();
      if (passage.startsWith('70-')) assert.match(await said.textContent(), `which has ${length}`);
      assert.is(await page.locator('.page-text .cited').count(), 0, `${passage}: nothing highlighted by guess`);
      if (passage === 'abc') await screenshot(page, 'reader-cited-out-of-range');
    } finally {
      await context.close();
    }
  }

  const pdf = w.files.pdf;
  const text: string = (await readPage(pdf, 2)).text;
  const { page, context } = await w.open(readerPath(pdf, 'page=2&passage=0-6'));
  try {
    await ready(page, 2);
    await page.locator('#cited-passage').waitFor();
    assert.is(await page.locator('#cited-passage').textContent(), [...text].slice(0, 6).join(''));
    await page.keyboard.press('PageUp');
    await ready(page, 1);
    assert.is(new URL(page.url()).searchParams.get('passage'), null, 'the address no longer names the passage');
    assert.is(await page.locator('.page-text .cited').count(), 0);
    assert.is(await page.locator('.note-warn', { hasText: 'cited passage' }).count(), 0);
  } finally {
    await context.close();
  }
});

test.run();
