/**
 * What the Corpus pages' browser tests share: `svc window --no-open --json`
 * (the real shell, its fallback backend) and Chromium, over the window
 * harness (test/_window.ts, startWindow), on a data directory that already
 * holds generated papers, its arXiv a loopback server answering a recorded
 * feed, and one real dive run through the backend so the fixture's papers
 * come in as a researcher's would. The harness keeps its own session (from
 * the printed link) to read what the backend stored and to mint a fresh
 * launch code for each tab.
 */
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { makeRecord, seed } from './_corpus.js';
import { fixture, noDnsEnv, waitFor } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { startWindow, windowDirs, type BrowserWindow } from './_window.js';

export const FEED = fixture('arxiv/search-all-testing-start0-max10.xml');
/** Titles of the recorded arXiv feed (search_query=all:testing). */
export const FEED_TITLES = ['Towards Explainable Test Case Prioritisation with Learning-to-Rank Models', 'Automated Test Generation for REST APIs: No Time to Rest Yet'];

export interface CorpusWindow extends BrowserWindow {
  arxiv: Stub;
  /** The execution of the dive that brought the feed's papers in. */
  diveId: number;
}

/** Records merged into the data directory before the window starts, as a run would merge them. */
async function seedRecords(env: Record<string, string>, records: NormalizedRecord[]): Promise<void> {
  if (records.length === 0) return;
  const ctx = createContext({ env, log: createLogger({ level: 'error', sink: () => undefined }) });
  try {
    seed(ctx, records);
  } finally {
    await ctx.close();
  }
}

/** `count` generated papers about soil (none matches the feed's words), all of the category "Soil science". */
export const soilPapers = (count: number) =>
  Array.from({ length: count }, (_, n) => makeRecord(n, { nativeId: `seed-${n}`, doi: `10.5555/seed.${n}`, title: `Generated paper number ${n} about soil`, categories: ['Soil science'] }));

/**
 * The window (Chromium and the shell) on a data directory holding `records`, its arXiv the recorded feed and other
 * sources at `env`'s addresses; `closes` as startWindow's: the stubs behind those addresses.
 */
export async function startCorpusWindow(executablePath: string, options: { records?: NormalizedRecord[]; env?: Record<string, string>; closes?: { close(): unknown }[] } = {}): Promise<CorpusWindow> {
  const arxiv = await startStub([{ path: '/query', body: FEED, headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  const dirs = windowDirs();
  await seedRecords(dirs.env, options.records ?? []);
  // No DNS for the shell and its backend: a source left unpointed fails at once instead of reaching the internet.
  const win = await startWindow(executablePath, { dirs, env: { ...noDnsEnv(), SVC_SOURCE_ARXIV_URL: arxiv.url, ...options.env }, closes: [arxiv, ...(options.closes ?? [])] });
  const dive = await win.api('POST', '/api/search/dive', { repository: 'arxiv', query: 'testing', max_results: 10 });
  const ended = await waitFor(async () => {
    const run = await win.api('GET', `/api/executions/${dive.id}`);
    return run.status !== 'running' && run.status !== 'queued' && run;
  }, 30_000, 'the dive to end');
  if (ended.status !== 'completed') throw new Error(`the dive ended ${ended.status}`);
  return { ...win, arxiv, diveId: dive.id };
}
