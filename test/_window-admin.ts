/**
 * What the Administration page's browser tests share, over the Search pages'
 * window (test/_window-pages.ts): papers stored by a dive on the recorded
 * arXiv feed, and their count read with the harness's session taken again
 * each time, since a restore's restart mints a new token.
 */
import * as assert from 'uvu/assert';
import type { RunDocuments } from '../src/wire/executions.js';
import { backendRequest, exchange, freshCode, type Session } from './_window.js';
import { diveToEnd, startPagesWindow, type PagesWindow } from './_window-pages.js';

export interface AdminWindow extends PagesWindow {
  /** The dive's run, whose papers the tests back up, erase and restore. */
  runId: number;
  /** The harness's own session, taken again after the backend changed (a restart mints a new token). */
  fresh(): Promise<Session>;
  /** How many papers the dive's run holds now. */
  papersOfRun(): Promise<number>;
}

/** The window with the dive's papers stored; a dive that fails closes the window before it throws. */
export async function startAdminWindow(executablePath: string): Promise<AdminWindow> {
  const win = await startPagesWindow(executablePath);
  let runId: number;
  try {
    runId = await diveToEnd(win);
  } catch (error) {
    await win.close();
    throw error;
  }
  const fresh = async () => exchange(win.shell, await freshCode(win.shell, win.session));
  return {
    ...win,
    runId,
    fresh,
    async papersOfRun() {
      const r = await backendRequest(await fresh(), 'GET', `/api/executions/${runId}/documents`);
      assert.is(r.status, 200, r.text);
      return (r.json() as RunDocuments).documents.length;
    },
  };
}
