/**
 * What the page tests of Search, the reading queue, the watchdog, analytics,
 * Routines and Administration share, over the window harness
 * (test/_window.ts, startWindow): `svc window` with arXiv
 * pointed at a loopback server answering a recorded feed (other sources, or
 * another arXiv, at the addresses a test gives), with no DNS so a source left
 * unpointed fails at once instead of reaching out, the harness's own session
 * for reading what the backend stored, a page of the window at a path with a
 * launch code of its own, and a dive run through the API to its end.
 */
import { fixture, noDnsEnv } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import type { Submitted } from '../src/wire/executions.js';
import { backendRequest, startWindow, type BrowserWindow } from './_window.js';

export interface PagesWindow extends BrowserWindow {
  arxiv: Stub;
}

/** The window on a fresh data directory; `env` adds to the shell's environment (`SVC_SOURCE_<ID>_URL` of other sources, a model's address). */
export async function startPagesWindow(executablePath: string, env: Record<string, string> = {}): Promise<PagesWindow> {
  const arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  return { ...(await startWindow(executablePath, { env: { ...noDnsEnv(), SVC_SOURCE_ARXIV_URL: arxiv.url, ...env }, closes: [arxiv] })), arxiv };
}

/** A dive on the fixture arXiv through the API, accepted (202) and waited to its end; answers the run's id. */
export async function diveToEnd(w: PagesWindow, query = 'testing'): Promise<number> {
  const dive = await backendRequest(w.session, 'POST', '/api/search/dive', { body: { repository: 'arxiv', query, max_results: 10 } });
  if (dive.status !== 202) throw new Error(`the dive answered ${dive.status}, not 202: ${dive.text}`);
  return runToEnd(w, (dive.json() as Submitted).id);
}

/** Wait for a run started through the API to complete; answers its id. */
export async function runToEnd(w: PagesWindow, id: number): Promise<number> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const run = await w.api('GET', `/api/executions/${id}`);
    if (run.status !== 'running') {
      if (run.status !== 'completed') throw new Error(`run ${id} ended ${run.status}`);
      return id;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${id} did not end in 30 s`);
}
