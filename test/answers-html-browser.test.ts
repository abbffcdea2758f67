/**
 * The HTML export opened in headless Chromium (found by test/_chromium.ts;
 * without one these tests are skipped and say how to get one) through
 * playwright-core (a dev dependency that never downloads a browser). The document is served on loopback with
 * its real headers; the test records every request the page makes and proves
 * that planted markup stays inert text and that the CSP blocks scripts.
 */
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAnswerHtml } from '../src/answers/export-html.js';
import { failed, succeeded } from './_answers-export.js';
import { browserTests } from './_chromium.js';

const { test, executablePath } = browserTests();

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Served { url: string; hits: string[]; close: () => Promise<void> }

/** One loopback server answering every path with the given body and headers, recording each request. */
async function serve(body: Buffer, headers: Record<string, string>): Promise<Served> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/export`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let browser: any;

test.before(async () => {
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: executablePath(), args: ARGS, headless: true });
});
test.after(async () => {
  await browser?.close();
});

/** Opens the document inline (the download header is for people; the browser test reads the page itself). */
async function open(body: Buffer, headers: Record<string, string>) {
  const served = await serve(body, { ...headers, 'content-disposition': 'inline' });
  const page = await browser.newPage();
  const requests: string[] = [];
  const console: string[] = [];
  page.on('request', (r: { url(): string }) => requests.push(r.url()));
  const failures: string[] = [];
  page.on('console', (m: { text(): string }) => console.push(m.text()));
  page.on('requestfailed', (r: { url(): string; failure(): { errorText: string } | null }) => failures.push(`${r.url()} ${r.failure()?.errorText}`));
  // Network idle (no request for 500 ms) is when a late fetch (an image's onerror, a script) would have shown.
  await page.goto(served.url, { waitUntil: 'networkidle' });
  return { page, served, requests, console, failures };
}

for (const [name, make] of [['succeeded', succeeded], ['failed', failed]] as const) {
  test(`${name} export: only the document is requested, planted markup is inert text, styles apply by hash`, async () => {
    const { bytes, headers } = buildAnswerHtml(make());
    const { page, served, requests, console, failures } = await open(bytes, headers);
    try {
      assert.equal(failures, []);
      assert.equal(requests, [served.url], 'the page requested nothing but itself');
      assert.equal(served.hits, ['GET /export']);
      // The planted <script> would set the title; the <img onerror> would fetch and alert.
      assert.is(await page.title(), 'Selected answer');
      assert.is(await page.evaluate('document.scripts.length'), 0);
      assert.is(await page.evaluate('document.images.length'), 0);
      assert.is(await page.evaluate('document.forms.length'), 0);
      const text = (await page.evaluate('document.body.innerText')) as string;
      assert.ok(text.includes('<script>document.title="pwned"</script>'), 'the script is shown as text');
      assert.ok(text.includes('**bold**'), 'Markdown stays literal');
      // The authored CSS applied, so its hash in the CSP is right; no CSP violation was logged.
      assert.is(await page.evaluate('getComputedStyle(document.body).maxWidth'), '960px');
      assert.not.ok(console.some((c) => /Content Security Policy/i.test(c)), console.join('\n'));
      const links = (await page.evaluate('[...document.links].map((a) => a.getAttribute("href"))')) as string[];
      for (const href of links) assert.match(href, /^#[A-Za-z0-9-]+$/);
      if (name === 'succeeded') {
        assert.ok(links.includes('#cite-1') && links.includes('#pos-1'));
        await page.click('a.cite >> nth=0');
        await page.click('#cite-1 a');
        assert.ok((page.url() as string).endsWith('#pos-1'));
        assert.is(await page.evaluate('document.querySelector(":target").id'), 'pos-1');
        assert.equal(served.hits, ['GET /export'], 'following citations fetches nothing');
      }
    } finally {
      await page.close();
      await served.close();
    }
  });
}

test('the CSP blocks a script even if one were in the document, and the meta copy does too', async () => {
  const { bytes, headers } = buildAnswerHtml(succeeded());
  const tampered = Buffer.from(bytes.toString('utf8').replace('<main>', '<main><script>document.title="ran"</script><img src="/probe.png">'), 'utf8');
  for (const h of [headers, { 'content-type': headers['content-type'] }]) {
    const { page, served, console, failures } = await open(tampered, h);
    try {
      assert.is(await page.title(), 'Selected answer', 'the inline script did not run');
      assert.ok(console.some((c) => /Content Security Policy/i.test(c)), 'Chromium reported the CSP refusal');
      // Chromium announces the image request, then blocks it by CSP before any byte leaves.
      assert.equal(served.hits, ['GET /export'], 'the image was not fetched');
      assert.equal(failures, [`${served.url.replace('/export', '/probe.png')} csp`]);
    } finally {
      await page.close();
      await served.close();
    }
  }
});

test.run();
