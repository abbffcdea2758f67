/**
 * A loopback source that holds every request until `release()`: a run stays
 * reliably running meanwhile (a cancel to test, progress to watch), then gets
 * the recorded answer it would have had.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldSource {
  url: string;
  /** Requests waiting for their answer now. */
  held(): number;
  /** Answer the waiting requests, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startHeldSource(body: Buffer, contentType = 'application/json'): Promise<HeldSource> {
  const waiting: http.ServerResponse[] = [];
  let released = false;
  const answer = (res: http.ServerResponse) => {
    if (!res.destroyed) res.writeHead(200, { 'content-type': contentType }).end(body);
  };
  const server = http.createServer((_req, res) => (released ? answer(res) : waiting.push(res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release() {
      released = true;
      for (const res of waiting.splice(0)) answer(res);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
