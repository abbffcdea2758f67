/**
 * Tests a machine cannot run (no browser, say) are skipped visibly, never
 * passed in silence: the file prints one line "SKIP: <reason>" saying why and
 * how to get what is missing, and its tests are registered with uvu's
 * test.skip, so uvu's summary counts them. The runner (test/run.mjs) adds them
 * up, prints each reason once on a line of its own, then "N skipped".
 */
import { suite, type Test } from 'uvu';

/** A stand-in for uvu's `test` that registers every test as skipped (hooks never run), having printed the reason once. */
export function skippedTests(reason: string): Test {
  console.log(`SKIP: ${reason}`);
  const inner = suite();
  const hook = Object.assign(() => undefined, { each: () => undefined });
  return Object.assign((name: string) => inner.skip(name), {
    only: (name: string) => inner.skip(name),
    skip: (name?: string) => inner.skip(name),
    before: hook,
    after: hook,
    run: () => inner.run(),
  });
}
