import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call } from '../src/providers/http.js';

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function failure(url: string): Promise<Error> {
  try {
    await call({ provider: 'Test', url, headers: {}, body: {}, secrets: ['sk-secret-value'] });
  } catch (err) {
    return err as Error;
  }
  throw new Error('answered');
}

test('an error body is read for its message, scrubbed', async () => {
  const s = await serve((_, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key sk-secret-value' } })));
  try {
    const err = await failure(s.url);
    assert.is(err.message, 'Test refused the key: bad key [redacted]');
  } finally {
    await s.close();
  }
});

test('an error body that never ends is read only up to its bound, then the request is dropped', async () => {
  let sent = 0;
  let closed = false;
  const s = await serve((_, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    const block = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && sent < 1024 * 1024 * 1024) {
        sent += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
    };
    res.once('close', () => (closed = true));
    pump();
  });
  try {
    const timeout = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5000).unref());
    const err = await Promise.race([failure(s.url), timeout]);
    assert.ok(err !== 'hung', 'the failure is reported, not waited on for the whole body');
    assert.is((err as Error).message, 'Test answered HTTP 500.');
    const waited = Date.now();
    while (!closed && Date.now() - waited < 2000) await new Promise((r) => setTimeout(r, 20));
    assert.ok(closed, 'the connection is dropped');
    assert.ok(sent < 64 * 1024 * 1024, `read far less than sent without end (${sent} bytes sent)`);
  } finally {
    await s.close();
  }
});

test.run();
