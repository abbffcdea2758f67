/**
 * Security audit: a distinctive secret sent to or stored by the service never
 * comes back in an HTTP answer (error bodies included) or a log line.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseStrictJson } from '../src/util/json-strict.js';
import { startTestServer, type TestServer } from './_setup.js';

// Short on purpose: V8 quotes a short body whole in its JSON.parse message.
const SECRET = 'sk-Zq8sAUDITx41';
let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

const leaks = (text: string) => text.includes(SECRET) || text.includes(SECRET.slice(3, 12));

test('a body that is not JSON is never quoted back: the parser message holds only a position', () => {
  for (const text of [SECRET, `{"value": ${SECRET}}`, `{"value": "${SECRET}" ${SECRET}}`, `{"key": "x", ${SECRET}`]) {
    try {
      parseStrictJson(text);
      assert.unreachable('parsed');
    } catch (err) {
      assert.not.ok(leaks((err as Error).message), (err as Error).message);
    }
  }
});

test('secret-carrying routes: a malformed body gets a 422 that does not quote the secret', async () => {
  const bodies = [SECRET, `{"value": ${SECRET}}`, `{"value": "x" ${SECRET}}`];
  const cases: [string, string][] = [
    ['PUT', '/api/credentials/openai_api_key'],
    ['POST', '/api/credentials/validate'],
    ['POST', '/api/ai/models'],
    ['POST', '/api/cloud/link'],
    ['POST', '/api/search/dive'],
    ['POST', '/api/routines/1/delivery-targets'],
  ];
  for (const [method, path] of cases) {
    for (const body of bodies) {
      const r = await t.request(method, path, { body });
      assert.ok(r.status === 422 || r.status === 404, `${method} ${path}: ${r.status}`);
      assert.not.ok(leaks(r.text), `${method} ${path} quoted the body: ${r.text}`);
    }
  }
  assert.not.ok(leaks(t.logLines.join('\n')), 'a log line quoted the body');
});

test.run();
