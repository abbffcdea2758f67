/**
 * A large parsed page comes back from its parse worker without holding the
 * event loop: the main thread's CPU in any one turn stays small while the
 * records arrive. Measured as CPU time of the main thread (Linux's per-thread
 * schedstat), not as wall time, which on a loaded machine is mostly the wait
 * for a core. Before, the whole page was one message, deserialised in one
 * turn: 100 records of 3,000 authors took 0.6 to 1 s of CPU.
 */
import * as assert from 'uvu/assert';
import { SOURCE_CAPS } from '../src/sources/caps.js';
import { OFF_THREAD_BYTES, parsePage } from '../src/sources/parse-page.js';
import { COLLABORATION_PAGE } from './_collaboration-page.js';
import { largestTurn, turnTest } from './_turns.js';

const test = turnTest();

test('100 collaboration papers of 3,000 authors each come back from the parse worker with no turn of the event loop over 150 ms of CPU, whole and in order', async () => {
  const input = { text: '100 3000', size: OFF_THREAD_BYTES }; // as large as a page parsed in a worker
  const { result: page, ms } = await largestTurn(() => parsePage(COLLABORATION_PAGE, input, { caps: SOURCE_CAPS }));
  assert.is(page.records.length, 100);
  assert.equal(page.records.map((r) => r.nativeId), Array.from({ length: 100 }, (_, r) => `2401.${10000 + r}`));
  assert.ok(page.records.every((r, i) => r.authors.length === 3000 && r.authors[2999]!.name === `Given2999 Family2999-${i}`));
  assert.is(page.total, 100);
  assert.is(page.capped, undefined);
  assert.ok(ms < 150, `the largest turn used ${ms.toFixed(0)} ms of the main thread's CPU`);
});

test('a page without records comes back whole from the worker', async () => {
  const page = await parsePage(COLLABORATION_PAGE, { text: '0 0', size: OFF_THREAD_BYTES }, { caps: SOURCE_CAPS });
  assert.equal(page, { records: [], received: 0, total: 0 });
});

test.run();
