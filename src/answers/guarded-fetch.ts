/**
 * The fetch the API lanes of answers use: one plain HTTP(S) request with the
 * operation limits of spec 2 — connect and write within their limit, read
 * inactivity bounded, the response body bounded, no redirect followed (a 3xx
 * is an error answer), no compression (identity only; an encoded answer is
 * refused), no retry, no pooling.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { LaneError } from './lane.js';

export interface GuardLimits {
  connectMs: number;
  inactivityMs: number;
  bodyBytes: number;
}

export function guardedFetch(limits: GuardLimits): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new LaneError('route_refused', 'Only http and https endpoints are used.');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    headers['accept-encoding'] = 'identity';
    const body = typeof init.body === 'string' ? Buffer.from(init.body, 'utf8') : undefined;
    if (body) headers['content-length'] = String(body.length);
    const lib = url.protocol === 'https:' ? https : http;
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = lib.request(url, { method: init.method ?? 'GET', headers, agent: false, signal });
      const connectTimer = setTimeout(() => req.destroy(new LaneError('connect_timeout', `The endpoint was not connected and written within ${limits.connectMs} ms.`)), limits.connectMs);
      req.once('error', (err) => {
        clearTimeout(connectTimer);
        reject(err);
      });
      req.once('finish', () => clearTimeout(connectTimer));
      req.once('response', (res) => {
        clearTimeout(connectTimer);
        const encoding = (res.headers['content-encoding'] ?? 'identity').toString().toLowerCase();
        if (encoding !== 'identity') {
          res.destroy();
          reject(new LaneError('compression_refused', 'The endpoint answered with a compressed body; compression is refused.'));
          return;
        }
        let received = 0;
        let idle: NodeJS.Timeout | undefined;
        const arm = () => {
          clearTimeout(idle);
          idle = setTimeout(() => res.destroy(new LaneError('read_inactivity', `The endpoint sent nothing for ${limits.inactivityMs} ms.`)), limits.inactivityMs);
        };
        arm();
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limits.bodyBytes) res.destroy(new LaneError('response_too_large', `The response body exceeds ${limits.bodyBytes} bytes.`));
          else arm();
        });
        res.once('close', () => clearTimeout(idle));
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
        const status = res.statusCode ?? 502;
        const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers: out }));
      });
      req.end(body);
    });
  }) as typeof globalThis.fetch;
}
