/**
 * A stand-in for the window harness (test/_window.ts, which comes with `svc
 * window`) for the page tests written before the shell landed: a real backend
 * on port 0 (test/_setup.ts) whose sources point at loopback fixture servers,
 * and a small renderer server that serves dist/web under the window's
 * Content-Security-Policy and answers the one-time exchange as the shell does.
 * The browser helpers have the harness's names and signatures, so a test
 * moves to the real shell by swapping startDevWindow for launchShell.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT, startTestServer, type TestServer } from './_setup.js';
import { browserTests } from './_chromium.js';

export const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');
const WEB = path.join(ROOT, 'dist', 'web');

export interface DevWindow {
  /** The backend: requests with its token (what the page stored is read over HTTP). */
  backend: TestServer;
  origin: string;
  /** A URL of the window with a fresh one-time launch code. */
  url(pathAndQuery: string): string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html; charset=utf-8' };

/** Start a backend whose sources `SVC_SOURCE_<ID>_URL` point at `sources` (more environment in `extraEnv`), and a renderer server for the page. */
export async function startDevWindow(sources: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<DevWindow> {
  const env: Record<string, string> = { ...extraEnv };
  for (const [id, url] of Object.entries(sources)) env[`SVC_SOURCE_${id.toUpperCase()}_URL`] = url;
  const backend = await startTestServer({ env, context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 60_000, executionHeartbeatMs: 50 } } });
  const base = `http://127.0.0.1:${backend.port}`;
  const codes = new Set<string>();
  const secret = crypto.randomBytes(16).toString('hex');
  const csp = `default-src 'none'; script-src 'self'; connect-src 'self' ${base}; worker-src 'self'; img-src 'self' data: blob:; style-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://renderer');
    if (url.pathname.startsWith('/shell/')) {
      let body = '';
      for await (const chunk of req) body += chunk;
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/shell/exchange') {
        const code = (JSON.parse(body || '{}') as { code?: string }).code ?? '';
        if (!codes.delete(code)) return void res.writeHead(403).end(JSON.stringify({ detail: { reason: 'launch_code_used', message: 'This launch code was used.' } }));
        return void res.end(JSON.stringify({ token: backend.token, backend: { base_url: base, role: 'server', runtime_id: backend.ctx.runtimeId }, shell_secret: secret, connect_origins: [base] }));
      }
      if (url.pathname === '/shell/launch-code' && req.headers['x-svc-shell'] === secret) {
        const code = crypto.randomBytes(16).toString('base64url');
        codes.add(code);
        return void res.end(JSON.stringify({ code }));
      }
      return void res.writeHead(404).end('{}');
    }
    const asset = url.pathname.startsWith('/assets/') ? path.join(WEB, path.normalize(url.pathname)) : null;
    const file = asset && asset.startsWith(WEB) && fs.existsSync(asset) ? asset : path.join(WEB, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-security-policy': csp, 'cache-control': 'no-store' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const registered = await backend.request('POST', '/api/auth/renderer-origin', { body: { origin } });
  if (registered.status !== 200) throw new Error(`renderer-origin answered ${registered.status}: ${registered.text}`);
  return {
    backend,
    origin,
    url(pathAndQuery) {
      const code = crypto.randomBytes(16).toString('base64url');
      codes.add(code);
      return `${origin}${pathAndQuery}#launch=${code}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}

/** A loopback source that holds every request until `release()`: a run stays reliably running meanwhile. */
export async function startHeldSource(body: Buffer, contentType = 'application/json') {
  const waiting: http.ServerResponse[] = [];
  let released = false;
  const server = http.createServer((_req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': contentType }).end(body);
    if (released) answer();
    else waiting.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release() {
      released = true;
      for (const res of waiting.splice(0)) if (!res.destroyed) res.writeHead(200, { 'content-type': contentType }).end(body);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ── the browser (as test/_window.ts has it) ─────────────────────────────────

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core is loaded lazily, untyped here */
export async function launchBrowser(): Promise<any> {
  const executablePath = browserTests().executablePath();
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: ARGS });
}

/** A fresh context (its own sessionStorage) and a page at `url`; `bypassCSP` only for the axe pass. */
export async function openPage(browser: any, url: string, options: { bypassCSP?: boolean; width?: number; height?: number } = {}): Promise<{ context: any; page: any; console: string[] }> {
  const context = await browser.newContext({ bypassCSP: options.bypassCSP ?? false, viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  const page = await context.newPage();
  const console: string[] = [];
  page.on('console', (m: any) => console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e: Error) => console.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, console };
}

export async function screenshot(page: any, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** axe-core's script: the package (a devDependency the shell's branch brings), else AXE_CORE_PATH; null when neither is there. */
export function axeScript(): string | null {
  const candidates = [path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), process.env.AXE_CORE_PATH].filter((p): p is string => !!p);
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  targets: string[];
}

/** axe-core on the page as it is now (its context must bypass the CSP); answers the serious and critical violations. */
export async function seriousViolations(page: any): Promise<AxeViolation[]> {
  const script = axeScript();
  if (!script) throw new Error('axe-core is not installed');
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.addScriptTag({ path: script });
  const result = await page.evaluate("axe.run(document, { resultTypes: ['violations'] })");
  return (result.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n: any) => String(n.target)) }));
}
/* eslint-enable @typescript-eslint/no-explicit-any */
