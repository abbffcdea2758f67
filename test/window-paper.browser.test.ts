/**
 * A paper's page in headless Chromium against `svc window --no-open --json`
 * (test/_window-corpus.ts: the real shell, a dive on a recorded arXiv feed,
 * and papers stored beforehand): what the page shows is what the backend
 * answers — identifiers linking out in a new tab with neither opener nor
 * referrer, the abstract, why the paper is here in sentences, a watch
 * profile's name-only match said to be a string match, a lifecycle event
 * found by a real check on a recorded Crossref answer with its notice link,
 * near-duplicates found by a real link scan with their method and the
 * collapse preview (nothing folded), and an unknown paper refused in words;
 * axe-core on each; screenshots at 1280 and 800 px wide, light and dark.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { bareRecord } from './_corpus.js';
import { fixture, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import { openPage, screenshot, seriousViolations } from './_window.js';
import { startCorpusWindow, type CorpusWindow } from './_window-corpus.js';

/** The page's document, for waits written as functions (see openPage in _window.ts: never as strings). */
declare const document: any;

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: CorpusWindow;
const CORRECTED = '10.1371/journal.pone.0033693';
const TWIN_TITLE = 'Soil carbon under cover crops: a field study across three climates';

test.before(async () => {
  const crossref = await startStub([{ path: `/works/${CORRECTED}`, body: fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json'), times: Infinity }]);
  // One work under two DOIs a year apart (a journal's and a proceedings' version): the
  // merge keeps them apart (their DOIs differ, and so do their years), a link scan links them.
  const twin = (doi: string, source: string, publicationDate: string) =>
    bareRecord({ source, nativeId: doi, doi, title: TWIN_TITLE, authors: [{ name: 'Maria Keller' }, { name: 'Tomas Lind' }], publicationDate, datePrecision: 'day', type: 'article' });
  const records = [
    bareRecord({ source: 'crossref', nativeId: CORRECTED, doi: CORRECTED, title: 'Corrected article', type: 'article', publicationDate: '2012-03-01', ids: { pmcid: 'PMC3310043' } }),
    twin('10.5555/twin.one', 'crossref', '2021-04-02'),
    twin('10.6666/twin.two', 'openalex', '2022-01-15'),
  ];
  win = await startCorpusWindow(executablePath(), { records, env: { SVC_SOURCE_CROSSREF_URL: crossref.url }, closes: [crossref] });
});
test.after(async () => {
  await win?.close();
});

const idOf = async (body: Record<string, unknown>, title: string) =>
  (await win.api('POST', '/api/explorer/search', { limit: 100, ...body })).papers.find((p: any) => p.title === title).id as number;

test('a paper found by the dive: identifiers linking out, the abstract, why it is here in sentences, a name-only profile match said to be a string match', async () => {
  await win.api('POST', '/api/profiles', { name: 'Andrea Arcuri' });
  const id = await idOf({ query: 'testing' }, 'A Survey on Web Testing: On the Rise of AI and Applications in Industry');
  const why = await win.api('GET', `/api/documents/${id}/why`);
  const { page, context } = await openPage(win.browser, await win.url(`/papers/${id}`));
  await page.locator('h1', { hasText: why.paper.title }).waitFor({ timeout: 20_000 });

  for (const identifier of why.paper.identifiers) {
    const link = page.locator(`a[href="${identifier.url}"]`);
    assert.is(await link.getAttribute('target'), '_blank', identifier.scheme);
    assert.equal((await link.getAttribute('rel')).split(' ').sort(), ['noopener', 'noreferrer'], identifier.scheme);
  }
  assert.ok(why.paper.identifiers.some((i: any) => i.scheme === 'arxiv'), 'the feed gives arXiv ids');
  assert.is(await page.textContent('.abstract'), why.paper.abstract);

  const run = why.executions[0];
  const runText = await page.locator('.why-run').first().textContent();
  assert.ok(runText.includes(`execution ${win.diveId}`), runText);
  assert.is(await page.locator('.why-run a').first().getAttribute('href'), `/runs/${win.diveId}`);
  assert.match(runText, new RegExp(`arXiv gave this paper ${run.rank + 1}(st|nd|rd|th) in its answer`));
  const term = run.terms.find((t: any) => t.term === 'testing');
  assert.ok(runText.includes(`“testing” is in the ${term.fields.join(' and ')}`), runText);

  const matches = (await win.api('POST', '/api/profiles/matches/for-documents', { document_ids: [id] })).documents[0].matches;
  assert.equal(matches.map((m: any) => [m.profile_name, m.basis]), [['Andrea Arcuri', 'name_only']]);
  const match = page.locator('.match');
  await match.waitFor();
  assert.match(await match.textContent(), /Andrea Arcuri matched the author “Andrea Arcuri” by name only/);
  assert.ok((await match.textContent()).includes((await win.api('POST', '/api/profiles/matches/for-documents', { document_ids: [id] })).what_a_basis_means.name_only));
  assert.match(await match.textContent(), /a string match, not an identity claim/);

  const similar = await win.api('GET', `/api/documents/${id}/similar?limit=10`);
  if (similar.results.length) await page.locator('.similar a', { hasText: similar.results[0].title }).waitFor();
  else await page.getByText(similar.message).waitFor();
  await screenshot(page, 'window-paper');
  await context.close();
});

test('a lifecycle event found by a real check shows with its notice link; DOI and PMC identifiers link to their pages', async () => {
  const started = await win.api('POST', '/api/lifecycle/check', { limit: 50 });
  await waitFor(async () => {
    const last = (await win.api('GET', '/api/lifecycle')).check.last;
    return last?.run_id === started.run_id && last.status !== 'running';
  }, 20_000, 'the lifecycle check to end');
  const id = await idOf({}, 'Corrected article');
  const life = await win.api('GET', `/api/documents/${id}/lifecycle`);
  assert.ok(life.events.length > 0, 'the recorded answer names a correction');
  const { page, context } = await openPage(win.browser, await win.url(`/papers/${id}`));
  const event = page.locator('.event').first();
  await event.waitFor({ timeout: 20_000 });
  assert.match(await event.textContent(), /New version/);
  assert.ok((await event.textContent()).includes(life.what_a_kind_means[life.events[0].kind]));
  assert.is(await event.locator('a').getAttribute('href'), life.events[0].notice_url);
  assert.is(await page.getAttribute(`a[href="https://doi.org/${CORRECTED}"]`, 'target'), '_blank');
  assert.is(await page.getAttribute('a[href="https://pmc.ncbi.nlm.nih.gov/articles/PMC3310043/"]', 'target'), '_blank');
  await screenshot(page, 'window-paper-lifecycle');
  await context.close();
});

test('near-duplicates found by a real link scan show their method, and the collapse preview folds nothing', async () => {
  await win.api('POST', '/api/links/scan');
  await waitFor(async () => (await win.api('GET', '/api/links/status')).scan?.state === 'completed', 30_000, 'the link scan to complete');
  const twins = (await win.api('POST', '/api/explorer/search', { query: 'cover crops', limit: 10 })).papers.map((p: any) => p.id as number);
  assert.is(twins.length, 2, 'two documents: their DOIs differ');
  const [id, other] = twins as [number, number];
  const links = await win.api('GET', `/api/documents/${id}/links`);
  assert.equal(links.links.map((l: any) => l.document_id), [other]);
  const { page, context } = await openPage(win.browser, await win.url(`/papers/${id}`));
  const dup = page.locator('.dup');
  await dup.waitFor({ timeout: 20_000 });
  assert.is(await dup.locator('a').getAttribute('href'), `/papers/${other}`);
  assert.is(links.links[0].method, 'doi_variant');
  assert.match(await dup.textContent(), /two DOIs for one work/);
  // The evidence is the service's sentence, the one `svc links show` prints, never JSON.
  const evidence = await dup.locator('.dup-evidence').textContent();
  assert.is(evidence, links.links[0].evidence_text);
  assert.match(evidence, /^DOIs 10\.5555\/twin\.one and 10\.6666\/twin\.two; /);
  assert.not.match(evidence, /[{}"]/);
  await page.getByRole('button', { name: 'Preview a collapse' }).click();
  const preview = await win.api('POST', '/api/links/collapse-preview', { document_ids: [id, other] });
  const said = page.locator('.collapse-preview');
  await said.waitFor();
  if (preview.groups.length) {
    assert.is(await said.locator('a').first().getAttribute('href'), `/papers/${preview.groups[0].keep}`);
    assert.match(await said.textContent(), /A collapse would keep/);
  }
  assert.ok((await said.textContent()).includes(preview.note));
  assert.is((await win.api('POST', '/api/explorer/search', { query: 'cover crops', limit: 10 })).papers.length, 2, 'nothing was folded');
  await screenshot(page, 'window-paper-duplicates');
  await context.close();
});

test('an unknown paper is refused in the service\'s words, with the way back', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/papers/999999'));
  await page.locator('h1', { hasText: 'No such paper' }).waitFor({ timeout: 20_000 });
  assert.match(await page.textContent('main'), /No document 999999/);
  assert.is(await page.getAttribute('main a[href="/explore"]', 'href'), '/explore');
  await context.close();
});

test('axe-core finds no serious or critical violation on a paper\'s page or an unknown one; screenshots at 800 px, dark', async () => {
  const id = await idOf({}, 'Corrected article');
  const twin = (await win.api('POST', '/api/explorer/search', { query: 'cover crops', limit: 1 })).papers[0].id;
  for (const address of [`/papers/${id}`, `/papers/${twin}`, '/papers/999999']) {
    const { page, context } = await openPage(win.browser, await win.url(address), { bypassCSP: true });
    await page.locator('h1').waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.querySelector('.busy'));
    assert.equal(await seriousViolations(page), [], address);
    await context.close();
  }
  const narrow = await win.browser.newContext({ viewport: { width: 800, height: 900 }, colorScheme: 'dark' });
  const page = await narrow.newPage();
  await page.goto(await win.url(`/papers/${twin}`));
  await page.locator('h1').waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector('.busy'));
  await screenshot(page, 'window-paper-800-dark');
  await page.goto(await win.url('/explore?q=testing'));
  await page.locator('.vlist').waitFor({ timeout: 20_000 });
  await screenshot(page, 'window-explore-800-dark');
  await narrow.close();
});

test.run();
/* eslint-enable @typescript-eslint/no-explicit-any */
