/**
 * Who may call the renderer server's /shell/ routes: a page of the window
 * itself. Host must name the window (a DNS-rebound name is refused); Origin
 * must be the window's origin — browsers send it on every POST, and on a GET
 * only across origins, so a GET without one must at least not say it came
 * from elsewhere (Sec-Fetch-Site); the shell actions also need the per-launch
 * secret the exchange handed to the page, compared in constant time. No
 * cross-origin request is ever answered with CORS headers.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: number;
  reason: string;
  message: string;
}

export interface ShellRule {
  origin: string;
  host: string;
}

export const SHELL_SECRET_HEADER = 'x-svc-shell';

export function refuseHost(req: IncomingMessage, rule: ShellRule): Refusal | null {
  if (req.headers.host === rule.host) return null;
  return { status: 403, reason: 'host_refused', message: `This window answers only as ${rule.host}.` };
}

export function refuseOrigin(req: IncomingMessage, rule: ShellRule): Refusal | null {
  const origin = req.headers.origin;
  const refused = { status: 403, reason: 'origin_refused', message: 'Only a page of this window may ask the window shell.' };
  if (origin !== undefined) return origin === rule.origin ? null : refused;
  const site = req.headers['sec-fetch-site'];
  return req.method === 'GET' && (site === undefined || site === 'same-origin') ? null : refused;
}

export function refuseSecret(req: IncomingMessage, secret: string): Refusal | null {
  const given = req.headers[SHELL_SECRET_HEADER];
  if (typeof given !== 'string' || given === '') return { status: 403, reason: 'shell_secret_missing', message: 'A shell action needs the X-Svc-Shell header the launch exchange gave the page.' };
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  if (!crypto.timingSafeEqual(digest(given), digest(secret))) return { status: 403, reason: 'shell_secret_invalid', message: 'The X-Svc-Shell header is not this window\'s: sign in again through a launch link.' };
  return null;
}
