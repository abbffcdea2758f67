import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type RequestOptions } from './_setup.js';

// t.inProcess stands in for the socket where no socket is the subject: it must answer what the socket answers.
test('the assembled app answers in-process what the server answers over its socket: routes, refusals, the guard', async () => {
  const t = await startTestServer();
  try {
    const cases: [string, string, RequestOptions?][] = [
      ['GET', '/api/settings/email'],
      ['PUT', '/api/settings/email', { body: { settings: { smtp_port: 'many' } } }],
      ['PUT', '/api/settings/email', { body: '{not json' }],
      ['GET', '/api/no-such-route'],
      ['DELETE', '/api/settings/email'],
      ['GET', '/api/settings/email', { token: null }],
      ['GET', '/api/settings/email', { headers: { host: 'example.org' } }],
      ['GET', '/api/library/files'],
    ];
    const statuses = new Set<number>();
    for (const [method, path, options] of cases) {
      const [socket, app] = [await t.request(method, path, options), await t.inProcess(method, path, options)];
      const seen = (r: typeof socket) => [r.status, r.headers['content-type'], r.headers['cache-control'], r.headers.allow, r.text];
      assert.equal(seen(app), seen(socket), `${method} ${path} ${JSON.stringify(options ?? {})}`);
      statuses.add(socket.status);
    }
    assert.equal([...statuses].sort(), [200, 401, 403, 404, 405, 422], 'an answer, a refusal of each kind');
  } finally {
    await t.close();
  }
});

test.run();
