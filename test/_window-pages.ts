/**
 * What the page tests of Search, the reading queue, the watchdog and analytics
 * share, over the window harness (test/_window.ts): `svc window` with arXiv
 * pointed at a loopback server answering a recorded feed (other sources, or
 * another arXiv, at the addresses a test gives), with no DNS so a source left
 * unpointed fails at once instead of reaching out, the harness's own session
 * for reading what the backend stored, a page of the window at a path with a
 * launch code of its own, and a dive run through the API to its end.
 */
import { fixture, noDnsEnv } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { backendRequest, exchange, freshCode, launchBrowser, launchShell, openPage, windowDirs, type Session, type ShellProcess } from './_window.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
export interface PagesWindow {
  browser: any;
  shell: ShellProcess;
  /** The harness's session: requests to the backend with its token. */
  session: Session;
  arxiv: Stub;
  /** A request to the backend as the harness; throws unless it answers 2xx. */
  api(method: string, path: string, body?: unknown): Promise<any>;
  /** A page of the window at `path`, signed in with a fresh launch code; `bypassCSP` only for the axe pass. */
  open(path: string, options?: { bypassCSP?: boolean; width?: number; height?: number }): Promise<{ context: any; page: any; console: string[] }>;
  close(): Promise<void>;
}

/** The window on a fresh data directory; `env` adds to the shell's environment (`SVC_SOURCE_<ID>_URL` of other sources, a model's address). */
export async function startPagesWindow(executablePath: string, env: Record<string, string> = {}): Promise<PagesWindow> {
  const arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  const dirs = windowDirs({ ...noDnsEnv(), SVC_SOURCE_ARXIV_URL: arxiv.url, ...env });
  const [browser, shell] = await Promise.all([launchBrowser(executablePath), launchShell(dirs.shellEnv)]);
  const session = await exchange(shell, shell.code);
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await backendRequest(session, method, path, { body });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${r.text}`);
    return r.status === 204 ? undefined : r.json();
  };
  return {
    browser,
    shell,
    session,
    arxiv,
    api,
    async open(path, options = {}) {
      const opened = await openPage(browser, `${shell.line.renderer_origin}${path}#launch=${await freshCode(shell, session)}`, options);
      await opened.page.waitForSelector('nav.nav', { timeout: 20_000 });
      return opened;
    },
    async close() {
      await browser?.close();
      await shell?.stop();
      await arxiv.close();
      dirs.cleanup();
    },
  };
}

/** A dive on the fixture arXiv through the API, waited to its end; answers the run's id. */
export async function diveToEnd(w: PagesWindow, query = 'testing'): Promise<number> {
  const { id } = await w.api('POST', '/api/search/dive', { repository: 'arxiv', query, max_results: 10 });
  return runToEnd(w, id);
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
/* eslint-enable @typescript-eslint/no-explicit-any */
