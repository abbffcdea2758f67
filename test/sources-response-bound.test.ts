/**
 * One source answer is bounded in size (its page cap, sources/caps.ts): an endpoint that streams
 * without end, or announces a body too big, fails the source as parse_failure naming the cap at
 * once instead of filling memory until the timeout. A real page still parses.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { findSource } from '../src/sources/index.js';
import { pageCapBytes, SOURCE_CAPS } from '../src/sources/caps.js';
import type { SourceAdapter } from '../src/sources/types.js';
import { serverWithSources, dive, finished } from './_executions.js';
import { fixture, waitFor } from './_setup.js';
import { sourceContext, signal } from './_sources.js';

const KEY = 'sekret-ieee-KEY-42';
/** The page cap of a source asked 3 (or 2) records a page: the 16 MiB floor. */
const CAP = pageCapBytes(SOURCE_CAPS, 3);
const CHUNK = Buffer.alloc(1024 * 1024, 0x20);

interface Endless {
  url: string;
  /** Bytes the server managed to write (and had written when the client hung up), and whether it did. */
  state: { sent: number; sentAtClose: number | null; closed: boolean; requests: number };
  close(): Promise<void>;
}

/**
 * 200 application/json that never ends, at most ~200 MiB/s so the old, unbounded code (which
 * the test must fail on) only reaches a few hundred MB before its timeout. `announce` sends a
 * Content-Length over the bound instead and then a few bytes and silence.
 */
async function endless(mode: 'stream' | 'announce' | 'fixture'): Promise<Endless> {
  const state = { sent: 0, sentAtClose: null as number | null, closed: false, requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    res.on('close', () => {
      state.closed = true;
      state.sentAtClose = state.sent;
    });
    if (mode === 'fixture') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(fixture('ieee/search-articles-ml-nlp-2020-2022-first3-of-50.json'));
      return;
    }
    if (mode === 'announce') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(CAP * 2) });
      res.write('{"articles": [');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"articles": ["');
    const pump = () => {
      if (res.destroyed) return;
      state.sent += CHUNK.length;
      const more = res.write(CHUNK);
      if (more) setTimeout(pump, 5);
      else res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function askIeee(url: string) {
  const t = sourceContext({ ieee: url }, { sourceTimeoutMs: 5000, sourceMaxAttempts: 2 });
  try {
    const started = Date.now();
    const out = await searchSource(t.ctx, findSource('ieee') as SourceAdapter, { query: 'llm', keywords: [], maxResults: 3 }, { signal: signal(), ephemeralCredentials: { ieee_api_key: KEY } });
    return { out, ms: Date.now() - started, logs: t.logLines.join('\n') };
  } finally {
    await t.close();
  }
}

test('an answer that never ends stops at the page cap: parse_failure with the status and the cap, not retried, the body cancelled, no key in the message', async () => {
  const server = await endless('stream');
  try {
    const { out, ms, logs } = await askIeee(server.url);
    assert.ok(ms < 4000, `failed at the cap, not at the 5 s timeout (${ms} ms)`);
    assert.is(out.zeroReason, 'parse_failure');
    assert.equal([out.evidence.exception_class, out.evidence.http_status, out.evidence.network], ['PageOverCap', 200, undefined]);
    assert.match(out.message!, /IEEE Xplore: the answer passed the 16 MiB page cap; svc stopped reading it \(svc-search\(1\), SOURCE CAPS\)/);
    assert.is(server.state.requests, 1, 'not retried');
    assert.is(out.traces[0]!.error, 'PageOverCap');
    assert.ok(out.traces[0]!.bytes > CAP && out.traces[0]!.bytes < CAP + 4 * CHUNK.length, `read just past the cap (${out.traces[0]!.bytes})`);
    for (const said of [out.message!, JSON.stringify(out.traces), logs]) assert.not.ok(said.includes(KEY), 'the key never appears');
    // The client hung up: the server stops being able to write.
    await waitFor(() => server.state.closed, 5000, 'the client to hang up');
    assert.ok(server.state.closed, 'the connection was closed');
    assert.is(server.state.sent, server.state.sentAtClose, 'nothing more was sent');
  } finally {
    await server.close();
  }
});

test('a Content-Length over the page cap is refused before reading', async () => {
  const server = await endless('announce');
  try {
    const { out, ms } = await askIeee(server.url);
    assert.ok(ms < 2000, `refused at once (${ms} ms)`);
    assert.is(out.zeroReason, 'parse_failure');
    assert.equal([out.evidence.exception_class, out.evidence.http_status], ['PageOverCap', 200]);
    assert.match(out.message!, /the answer announced 32 MiB, over the 16 MiB page cap; svc did not read it/);
    assert.is(out.traces[0]!.bytes, 0);
    assert.is(server.state.requests, 1);
  } finally {
    await server.close();
  }
});

test('a real page under the bound still parses', async () => {
  const server = await endless('fixture');
  try {
    const { out } = await askIeee(server.url);
    assert.is(out.zeroReason, null, out.message ?? '');
    assert.is(out.records.length, 3);
    assert.is(out.traces[0]!.bytes, fixture('ieee/search-articles-ml-nlp-2020-2022-first3-of-50.json').length);
  } finally {
    await server.close();
  }
});

test('a run records the endless source as parse_failure naming the cap and finishes promptly', async () => {
  const server = await endless('stream');
  const t = await serverWithSources({ crossref: server.url });
  try {
    const id = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
    const detail = await finished(t, id, 10_000);
    // The cap, not the source's 3 s timeout, ended it: a timeout is upstream_failure and names no cap.
    const source = detail.sources.find((s: any) => s.source === 'crossref');
    assert.is(source.zero_reason, 'parse_failure');
    assert.match(JSON.stringify(detail), /passed the 16 MiB page cap/);
  } finally {
    await t.close();
    await server.close();
  }
});

test.run();
