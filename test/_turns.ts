/**
 * The main thread's CPU time in one turn of the event loop, for tests that an
 * input never holds the loop for long. Measured as CPU time of the main thread
 * (Linux's per-thread schedstat), not as wall time, which on a loaded machine is
 * mostly the wait for a core. Where schedstat is missing, `turnTest` skips its
 * tests visibly.
 */
import fs from 'node:fs';
import { test as uvuTest, type Test } from 'uvu';
import { skippedTests } from './_skip.js';

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** uvu's `test`, or every test skipped with the reason where the main thread's CPU time cannot be read. */
export const turnTest = (): Test =>
  fs.existsSync(SCHEDSTAT) ? uvuTest : skippedTests('the main thread\'s CPU time per turn is read from Linux\'s /proc/self/task/<pid>/schedstat, which this system has not');

/** The main thread's CPU time so far, in ms. */
const threadCpuMs = () => Number(fs.readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;

/** The most CPU the main thread used between two ticks of a 5 ms timer while `work` ran. */
export async function largestTurn<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  let last = threadCpuMs();
  let ms = 0;
  const ticker = setInterval(() => {
    const now = threadCpuMs();
    ms = Math.max(ms, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the turn that settled it is counted too
    return { result, ms };
  } finally {
    clearInterval(ticker);
  }
}
