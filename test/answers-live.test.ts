import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import zlib from 'node:zlib';
import { guardedFetch } from '../src/answers/guarded-fetch.js';
import { LaneError } from '../src/answers/lane.js';
import { DEFAULT_ANSWER_LIMITS } from '../src/answers/limits.js';
import { LiveRun } from '../src/answers/live.js';
import { waitFor } from './_setup.js';

const identity = { answer_id: 'a', request_sha256: 'h', project_id: 'p', vault_id: 'v', runtime_id: 'r' };

test('one subscriber; first frame the snapshot; monotonic sequence; partial frames coalesce', async () => {
  const run = new LiveRun(identity, { ...DEFAULT_ANSWER_LIMITS });
  run.push('progress', { lost: true }); // nobody attached: dropped (the snapshot carries the saved state)
  const sub = run.attach(() => ({ state: 'admitted' }))!;
  assert.is(run.attach(() => ({})), null);
  run.push('partial', { text: 'ab' });
  run.push('partial', { text: 'cd' });
  run.push('terminal', { state: 'succeeded' });
  const frames = [];
  for (let f = await sub.next(); f; f = await sub.next()) frames.push(f);
  assert.equal(frames.map((f) => f.type), ['snapshot', 'partial', 'terminal']);
  assert.equal(frames.map((f) => f.sequence), [1, 2, 3]);
  assert.equal(frames[1]!.data, { text: 'abcd' });
  assert.is(frames[0]!.answer_id, 'a');
  assert.is(run.controller.signal.aborted, false);
});

test('queue overflow (frames or bytes) and disconnect cancel the run; a missed attach cancels it', async () => {
  const frames = new LiveRun(identity, { ...DEFAULT_ANSWER_LIMITS, queueFrames: 3 });
  frames.attach(() => ({}));
  for (let i = 0; i < 3; i++) frames.push('report', { i });
  assert.is(frames.stopReason, 'queue_overflow');
  const bytes = new LiveRun(identity, { ...DEFAULT_ANSWER_LIMITS, queueBytes: 600 });
  bytes.attach(() => ({}));
  bytes.push('report', { pad: 'x'.repeat(600) });
  assert.is(bytes.stopReason, 'queue_overflow');
  const gone = new LiveRun(identity, { ...DEFAULT_ANSWER_LIMITS });
  gone.attach(() => ({}))!.close();
  assert.is(gone.stopReason, 'subscriber_disconnected');
  const late = new LiveRun(identity, { ...DEFAULT_ANSWER_LIMITS, attachMs: 20 });
  await waitFor(() => late.stopReason, 2000, 'the attach time limit');
  assert.is(late.stopReason, 'attach_timeout');
});

async function server(handler: http.RequestListener) {
  const srv = http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/x`;
  return { url, close: () => new Promise<void>((r) => (srv.closeAllConnections(), srv.close(() => r()))) };
}

// Inactivity at 500 ms: long enough that a loaded machine never stalls an answer sent whole, short for the one that stops.
const limits = { connectMs: 1000, inactivityMs: 500, bodyBytes: 1000 };

async function reason(p: Promise<Response>, read = true): Promise<string> {
  try {
    const res = await p;
    if (read) await res.text();
    return `ok ${res.status}`;
  } catch (err) {
    return err instanceof LaneError ? err.reason : String((err as Error).cause ?? err);
  }
}

test('guarded fetch: no redirect followed, compression refused, identity asked, body and inactivity bounded', async () => {
  let encoding: string | undefined;
  const s = await server((req, res) => {
    encoding = req.headers['accept-encoding'];
    if (req.url === '/x?redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
    if (req.url === '/x?gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('hi'));
    if (req.url === '/x?big') return void res.writeHead(200).end('x'.repeat(5000));
    if (req.url === '/x?slow') return void (res.writeHead(200), res.write('a'));
    res.writeHead(200).end('fine');
  });
  const f = guardedFetch(limits);
  try {
    assert.is(await reason(f(`${s.url}?redirect`, { method: 'POST', body: '{}' })), 'ok 302');
    assert.is(encoding, 'identity');
    assert.is(await reason(f(`${s.url}?gzip`)), 'compression_refused');
    assert.is(await reason(f(`${s.url}?big`)), 'response_too_large');
    assert.is(await reason(f(`${s.url}?slow`)), 'read_inactivity');
    assert.is(await (await f(s.url)).text(), 'fine');
  } finally {
    await s.close();
  }
});

test.run();
