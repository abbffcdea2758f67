/**
 * Not a test file of the suite: test/test-server-errors.test.ts runs it as a
 * process. Its first test makes its test server answer internal_error (with
 * "fault") while asserting nothing that fails on its own; the second is plain.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer } from './_setup.js';

const fault = process.argv[2] === 'fault';

test('a request whose answer the test does not look at closely', async () => {
  const t = await startTestServer();
  try {
    if (fault) {
      t.ctx.settings.read = () => {
        throw new TypeError('a planted fault');
      };
    }
    const r = await t.request('GET', '/api/settings/email');
    assert.ok(r.status === 200 || r.status === 500, String(r.status));
  } finally {
    await t.close();
  }
});

test('a later test in the same file', () => {
  assert.ok(true);
});

test.run();
