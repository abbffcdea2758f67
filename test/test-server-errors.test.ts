import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './_setup.js';

// The probe is a uvu file of its own (test/_internal-error-probe.ts), run as a process so its failure is not this file's.
const probe = (mode: 'fault' | 'clean') => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'test', '_internal-error-probe.js'), mode], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, output: r.stdout + r.stderr };
};

test('a test whose server logs internal_error fails, with the log line, and the tests after it still run', () => {
  const { code, output } = probe('fault');
  assert.is.not(code, 0, output);
  assert.match(output, /FAIL {2}"a request whose answer the test does not look at closely"/);
  assert.match(output, /a test server answered internal_error/);
  assert.match(output, /unexpected error.*a planted fault/);
  assert.match(output, /Total: +2\n +Passed: +1\n/, 'only the test that caused it fails');
});

test('a test whose server answers as planned passes', () => {
  const { code, output } = probe('clean');
  assert.is(code, 0, output);
  assert.match(output, /Total: +2\n +Passed: +2\n/);
});

test.run();
