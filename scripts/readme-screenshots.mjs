#!/usr/bin/env node
// The README's pictures of the window, made again from recorded answers:
// a temp data directory, a daemon on it, sources that are loopback servers
// answering the recorded fixtures (test/fixtures), a sweep and a dive run as a
// researcher would start them, then `svc window --no-open --json` and headless
// Chromium at 1280×800, light, with motion reduced. Writes docs/screenshots/
// {explore,paper,run}.png, squeezed by pngquant and optipng when they are on
// PATH (Debian's packages of those names); without them the files are larger,
// not different. Nothing outside loopback is asked.
//
//   npm run build && node scripts/readme-screenshots.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'docs', 'screenshots');
const dist = (p) => import(path.join(root, 'dist', p));
const { findChromium } = await dist('test/_chromium.js');
const { launchShell, exchange, freshCode, backendRequest, windowDirs } = await dist('test/_window.js');

/** Each source: the recorded answer it gives to every request (one page each, so no paging repeats it). */
const SOURCES = {
  openalex: ['openalex/works-search-ml-nlp-2020-2022-first5-of-50.json', 'application/json'],
  ieee: ['ieee/search-articles-ml-nlp-2020-2022-max50.json', 'application/json'],
  scopus: ['scopus/search-scopus-title-abs-key-ml-nlp-2020-2022-count25.json', 'application/json'],
  arxiv: ['arxiv/search-all-testing-start0-max10.xml', 'application/atom+xml'],
};
const SWEEP = { repositories: ['openalex', 'ieee', 'scopus'], query: 'machine learning natural language processing', date_from: '2020-01-01', date_to: '2022-12-31', max_results: 25 };
const VIEWPORT = { width: 1280, height: 800 };

const chromium = findChromium();
if (!chromium.path) {
  console.error(`readme-screenshots: ${chromium.why}`);
  process.exit(1);
}

function serve(file, type) {
  const body = fs.readFileSync(path.join(root, 'test', 'fixtures', file));
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const servers = Object.fromEntries(await Promise.all(Object.entries(SOURCES).map(async ([id, [file, type]]) => [id, await serve(file, type)])));
const sourceEnv = Object.fromEntries(Object.entries(servers).map(([id, s]) => [`SVC_SOURCE_${id.toUpperCase()}_URL`, `http://127.0.0.1:${s.address().port}`]));
const dirs = windowDirs({ ...sourceEnv, TZ: 'UTC' });
const svc = (...args) => execFileSync(process.execPath, [path.join(root, 'bin', 'svc.js'), ...args], { env: dirs.shellEnv, stdio: ['ignore', 'pipe', 'pipe'] });

let shell;
let browser;
try {
  svc('daemon', 'start'); // with the daemon there, the window is attached to it and shows no fallback banner
  shell = await launchShell(dirs.shellEnv);
  const session = await exchange(shell, shell.code);
  const api = async (method, p, body) => {
    const r = await backendRequest(session, method, p, { body });
    if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${r.text}`);
    return r.status === 204 ? undefined : r.json();
  };
  const runToEnd = async (id) => {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
      const run = await api('GET', `/api/executions/${id}`);
      if (run.status !== 'running' && run.status !== 'queued') return run;
    }
    throw new Error(`run ${id} did not end in 60 s`);
  };

  await api('PUT', '/api/settings/email', { settings: { contact_email: 'researcher@example.org' } });
  // The recorded answers need no key; the sources that ask for one are offered only with one stored.
  for (const id of ['openalex', 'ieee', 'scopus']) await api('PUT', `/api/credentials/${id}_api_key`, { value: 'readme-screenshot-key' });
  const sweep = await runToEnd((await api('POST', '/api/search/sweep', SWEEP)).id);
  await runToEnd((await api('POST', '/api/search/dive', { repository: 'arxiv', query: 'testing', max_results: 10 })).id);
  if (sweep.status !== 'completed') throw new Error(`the sweep ended ${sweep.status}`);

  // The paper shown: the sweep's richest (found by the most sources, with an abstract and authors), saved to read.
  const { documents } = await api('GET', `/api/executions/${sweep.id}/documents?limit=500`);
  const richness = (d) => d.found_by.length * 1000 + (d.abstract ? 500 : 0) + Math.min(d.abstract?.length ?? 0, 400) + (d.authors?.length ?? 0);
  const paper = [...documents].sort((a, b) => richness(b) - richness(a))[0];
  await api('POST', '/api/reading-queue', { document_id: paper.id });

  const { chromium: playwright } = await import('playwright-core');
  browser = await playwright.launch({ executablePath: chromium.path, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--hide-scrollbars'] });
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light', reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(`${shell.line.renderer_origin}/#launch=${await freshCode(shell, session)}`);
  await page.waitForSelector('nav.nav', { timeout: 30_000 });
  const visit = async (p) => {
    await page.evaluate(`history.pushState(null, '', ${JSON.stringify(p)}); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.waitForLoadState('networkidle');
    for (const until = Date.now() + 20_000; (await page.locator('.busy, .spinner').count()) > 0 && Date.now() < until; ) await page.waitForTimeout(100);
  };
  fs.mkdirSync(OUT, { recursive: true });
  const shots = [
    ['explore', '/explore?q=%22natural%20language%22', '.vlist .result-title'],
    ['paper', `/papers/${paper.id}`, '#why-heading'],
    ['run', `/runs/${sweep.id}`, '.paper-title'],
  ];
  for (const [name, address, ready] of shots) {
    await visit(address);
    await page.locator(ready).first().waitFor({ timeout: 20_000 });
    const file = path.join(OUT, `${name}.png`);
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    squeeze(file);
    console.log(`${path.relative(root, file)}  ${address}  ${(fs.statSync(file).size / 1024).toFixed(0)} kB`);
  }
} finally {
  await browser?.close();
  await shell?.stop();
  try {
    svc('daemon', 'stop');
  } catch (err) {
    console.error(`readme-screenshots: svc daemon stop: ${err.stderr ?? err.message}`);
  }
  for (const s of Object.values(servers)) s.close();
  dirs.cleanup();
}

/** pngquant to 256 colours (flat interface colours survive it), then optipng, each only when installed. */
function squeeze(file) {
  const has = (tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (has('pngquant')) {
    try {
      execFileSync('pngquant', ['--force', '--skip-if-larger', '--strip', '--speed', '1', '--output', file, '--', file]);
    } catch (err) {
      if (err.status !== 98 && err.status !== 99) throw err; // 98, 99: the quantised file would be larger or too unlike; the original stays
    }
  } else console.error('readme-screenshots: pngquant is not installed; the PNG is left as Chromium wrote it');
  if (has('optipng')) execFileSync('optipng', ['-quiet', '-o5', '-strip', 'all', file]);
}
