/**
 * The fallback backend's idle stop, with svc window as a real process and
 * SVC_FALLBACK_IDLE_MS shortening the 3 minutes: heartbeats keep it, a run
 * keeps it without them, and once nothing runs it stops and the shell ends.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixture, waitFor } from './_setup.js';
import { backendRequest, exchange, launchShell, publishedPid, windowDirs } from './_window.js';
import { isPidAlive } from '../src/util/pid.js';

const gone = (pid: number) => waitFor(() => !isPidAlive(pid), 15_000, `process ${pid} to stop`);

/** A crossref stand-in that holds every request until released, then answers a recorded page. */
async function heldSource() {
  const held: http.ServerResponse[] = [];
  let released = false;
  const answer = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(fixture('crossref/works-query-ecology-rows2.json'));
  const server = http.createServer((_req, res) => (released ? answer(res) : held.push(res)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    release() {
      released = true;
      held.splice(0).forEach(answer);
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

test('the fallback stops after the idle time without a heartbeat and with nothing running, not while a run is active; the shell then ends (exit 0)', async () => {
  const dirs = windowDirs();
  const source = await heldSource();
  const shell = await launchShell({ ...dirs.shellEnv, SVC_FALLBACK_IDLE_MS: '1500', SVC_SOURCE_CROSSREF_URL: source.url });
  try {
    const session = await exchange(shell, shell.code);
    const pid = publishedPid(dirs)!;
    // Heartbeats keep it: 3 s of them, twice the idle time.
    for (let i = 0; i < 10; i++) {
      assert.is((await backendRequest(session, 'POST', '/api/renderer/heartbeat', { origin: shell.line.renderer_origin })).status, 200);
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.ok(isPidAlive(pid), 'heartbeats keep the fallback');
    // A run keeps it without heartbeats.
    const dive = await backendRequest(session, 'POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2 } });
    assert.is(dive.status, 202, dive.text);
    await waitFor(() => source.held() > 0, 10_000, 'the source to be asked');
    await new Promise((r) => setTimeout(r, 3000));
    assert.ok(isPidAlive(pid), 'a run keeps the fallback past the idle time');
    assert.is(shell.proc.exitCode, null);
    source.release();
    await gone(pid);
    const end = await shell.exited;
    assert.is(end.code, 0, shell.stderr());
    assert.match(shell.stderr(), /the backend stopped after 1\.5 s without a window open and with nothing running/);
  } finally {
    await shell.stop();
    await source.close();
    dirs.cleanup();
  }
});

test.run();
