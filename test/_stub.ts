/**
 * A strict loopback stub of an outside HTTP API. Each expectation answers
 * requests whose path and query match; a request nothing expects gets 599 and
 * is remembered, and `assertDone()` fails on those and on expectations never
 * used. Bodies come from recorded real responses (test/fixtures).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Expectation {
  /** Path the request must have (exact), e.g. "/works". */
  path: string;
  /** Query parameters that must be present with these values (others allowed). */
  query?: Record<string, string>;
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** How many requests it answers (default 1); Infinity for any number. */
  times?: number;
  /** Wait before answering (timeouts). */
  delayMs?: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface Stub {
  url: string;
  requests: SeenRequest[];
  expect(e: Expectation): void;
  assertDone(): void;
  close(): Promise<void>;
}

export async function startStub(expectations: Expectation[] = []): Promise<Stub> {
  const pending = expectations.map((e) => ({ ...e, used: 0 }));
  const requests: SeenRequest[] = [];
  const unexpected: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, at: Date.now() });
    const match = pending.find(
      (e) => e.used < (e.times ?? 1) && e.path === url.pathname && Object.entries(e.query ?? {}).every(([k, v]) => url.searchParams.get(k) === v),
    );
    if (!match) {
      unexpected.push(`${req.method} ${url.pathname}${url.search}`);
      res.writeHead(599, { 'content-type': 'text/plain' }).end('no stub for this request');
      return;
    }
    match.used++;
    const answer = () => {
      res.writeHead(match.status ?? 200, { 'content-type': 'application/json', ...match.headers });
      res.end(match.body ?? '');
    };
    if (match.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, match.delayMs);
      timers.add(timer);
    } else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    expect: (e) => void pending.push({ ...e, used: 0 }),
    assertDone() {
      if (unexpected.length) throw new Error(`unexpected requests: ${unexpected.join(', ')}`);
      const unused = pending.filter((e) => e.times !== Infinity && e.used < (e.times ?? 1));
      if (unused.length) throw new Error(`expected requests never made: ${unused.map((e) => e.path + JSON.stringify(e.query ?? {})).join(', ')}`);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
