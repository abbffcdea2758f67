/**
 * The window harness: `svc window --no-open --json` as a real process (the
 * shell is the subject), raw HTTP to its renderer server and to its backend,
 * and — for the browser tests — Chromium through playwright-core, with
 * screenshots in test-output/screenshots/ (git-ignored) and an axe-core pass
 * in a context that bypasses the CSP (axe is injected as a script; the
 * window's CSP rightly refuses it everywhere else).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { rawRequest, ROOT, tempDirs, type RawResponse, type TempDirs } from './_setup.js';

export const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');

/** A window's temp folders and environment: no SVC_DISABLE_SCHEDULER (the shell must set it for its fallback itself). */
export function windowDirs(extra: Record<string, string> = {}): TempDirs & { shellEnv: Record<string, string> } {
  const dirs = tempDirs();
  const { SVC_DISABLE_SCHEDULER: _, ...env } = dirs.env;
  return { ...dirs, shellEnv: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env, ...extra } };
}

export interface ShellLine {
  url: string;
  renderer_origin: string;
  backend: { base_url: string; role: string };
}

export interface ShellProcess {
  proc: ChildProcess;
  line: ShellLine;
  /** The renderer port. */
  port: number;
  /** The launch code of the printed URL. */
  code: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Signal the shell (SIGTERM unless named) and wait for its exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start `svc window --no-open --json` and read its one line. */
export async function launchShell(env: Record<string, string>, args: string[] = [], timeoutMs = 30_000): Promise<ShellProcess> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'window', '--no-open', '--json', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const lines = readline.createInterface({ input: proc.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc window printed no line in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
    lines.once('line', (l) => (clearTimeout(timer), resolve(l)));
    void exited.then(({ code }) => (clearTimeout(timer), reject(new Error(`svc window exited (${code}) before its line; stderr: ${stderr}`))));
  });
  const line = JSON.parse(first) as ShellLine;
  const url = new URL(line.url);
  return {
    proc,
    line,
    port: Number(url.port),
    code: url.hash.replace(/^#launch=/, ''),
    stderr: () => stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

export interface ShellCall {
  method?: string;
  /** The Origin header; null sends none; the window's own when left out. */
  origin?: string | null;
  secret?: string;
  body?: unknown;
  host?: string;
  headers?: Record<string, string>;
}

/** One raw request to the renderer server. */
export function shellRequest(shell: ShellProcess, p: string, call: ShellCall = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { host: call.host ?? `127.0.0.1:${shell.port}`, ...call.headers };
  const origin = call.origin === undefined ? shell.line.renderer_origin : call.origin;
  if (origin !== null) headers.origin = origin;
  if (call.secret !== undefined) headers['x-svc-shell'] = call.secret;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  return rawRequest(shell.port, { method: call.method ?? (body === undefined ? 'GET' : 'POST'), path: p, headers, body });
}

export interface Session {
  token: string;
  backend: { base_url: string; role: string; runtime_id: string };
  shell_secret: string;
  connect_origins: string[];
}

/** Trade a launch code for the session, as the page does; throws on a refusal. */
export async function exchange(shell: ShellProcess, code: string): Promise<Session> {
  const r = await shellRequest(shell, '/shell/exchange', { body: { code } });
  if (r.status !== 200) throw new Error(`exchange answered ${r.status}: ${r.text}`);
  return r.json();
}

/** A fresh launch code from the shell (the "open in a new tab" action). */
export async function freshCode(shell: ShellProcess, session: Session): Promise<string> {
  const r = await shellRequest(shell, '/shell/launch-code', { method: 'POST', secret: session.shell_secret });
  if (r.status !== 200) throw new Error(`launch-code answered ${r.status}: ${r.text}`);
  return r.json().code;
}

/**
 * A request to the session's backend with its token; `origin` as a page of the window would send it, or none;
 * a JSON `body`, or raw `bytes` (an import's file); `headers` added.
 */
export function backendRequest(
  session: Session,
  method: string,
  p: string,
  options: { origin?: string; body?: unknown; bytes?: Buffer | string; headers?: Record<string, string>; token?: string } = {},
): Promise<RawResponse> {
  const port = Number(new URL(session.backend.base_url).port);
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, authorization: `Bearer ${options.token ?? session.token}`, ...options.headers };
  if (options.origin) headers.origin = options.origin;
  let body: string | Buffer | undefined = options.bytes;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  } else if (body !== undefined) headers['content-type'] = 'application/octet-stream';
  return rawRequest(port, { method, path: p, headers, body });
}

/**
 * A Library or Evidence request as the window's pages send it: the renderer's Origin and X-Svc-Library: 1
 * besides the token (the Library's guard refuses either missing); a JSON `body` or an import's raw `bytes`.
 */
export function libraryRequest(win: Pick<BrowserWindow, 'session' | 'shell'>, method: string, p: string, payload: { body?: unknown; bytes?: Buffer | string } = {}): Promise<RawResponse> {
  return backendRequest(win.session, method, p, { ...payload, origin: win.shell.line.renderer_origin, headers: { 'x-svc-library': '1' } });
}

/** The JSON of a 2xx answer (undefined for a 204); throws naming the request otherwise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read as the test needs
export function okJson(r: RawResponse, method: string, p: string): any {
  if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${r.text}`);
  return r.status === 204 ? undefined : r.json();
}

// ── the browser ─────────────────────────────────────────────────────────────

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core is loaded lazily, untyped here */
/** Chromium at `executablePath` (test/_chromium.ts finds it), headless, as every browser test starts it. */
export async function launchBrowser(executablePath: string): Promise<any> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: ARGS });
}

/**
 * A fresh context (its own sessionStorage) and a page at `url`; `bypassCSP` only for the axe pass. Write
 * `page.waitForFunction` predicates as functions, never strings: Playwright evaluates a string anew at
 * every poll, which the window's CSP (no unsafe-eval) refuses from the second poll on; a function is
 * evaluated once.
 */
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

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  /** Where, for the first few nodes (CSS selectors). */
  targets: string[];
}

/**
 * axe-core on the page as it is now (its context must bypass the CSP); answers the serious and critical violations.
 * The script is injected once per document, so a test may check several views reached by in-page navigation.
 */
export async function seriousViolations(page: any): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.addScriptTag({ path: path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
  const result = await page.evaluate("axe.run(document, { resultTypes: ['violations'] })");
  return (result.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n: any) => String(n.target)) }));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The pid of the server that published this data directory's port file (a fallback, here). */
export function publishedPid(dirs: TempDirs): number | undefined {
  const file = fs.readdirSync(dirs.stateDir).find((f) => f.startsWith('port-'));
  return file ? JSON.parse(fs.readFileSync(path.join(dirs.stateDir, file), 'utf8')).pid : undefined;
}

// ── a window for a browser test ─────────────────────────────────────────────

export type WindowDirs = ReturnType<typeof windowDirs>;

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects and JSON answers */
export interface BrowserWindow {
  browser: any;
  shell: ShellProcess;
  /** The harness's session, from the printed link's code: requests to the backend with its token. */
  session: Session;
  dirs: WindowDirs;
  /** A request to the backend as the harness; throws unless it answers 2xx (backendRequest for the raw answer, libraryRequest for the Library's). */
  api(method: string, path: string, body?: unknown): Promise<any>;
  /** The window's address at `path` with a fresh one-time launch code: one tab each. */
  url(path: string): Promise<string>;
  /** A tab of the window at `path`, waited until it is signed in (its navigation is drawn); `bypassCSP` only for the axe pass. */
  open(path: string, options?: { bypassCSP?: boolean; width?: number; height?: number; colorScheme?: 'light' | 'dark' }): Promise<{ context: any; page: any; console: string[] }>;
  /** Closes the browser, stops the shell, closes what the test handed over (in its order), removes the folders. */
  close(): Promise<void>;
}

export interface WindowOptions {
  /** Added to the shell's environment: a source's or a model's address. */
  env?: Record<string, string>;
  /** The folders, when the test fills them before the shell starts; fresh ones otherwise. The window removes them either way. */
  dirs?: WindowDirs;
  /** What the test started for this window (loopback stubs, a daemon), closed once the shell has stopped. */
  closes?: { close(): unknown }[];
}

/**
 * Chromium and `svc window --no-open --json` started side by side, the printed link's code traded for the
 * harness's session. A start that fails closes what did start (and what the test handed over) before it throws.
 * @example const win = await startWindow(executablePath(), { env: { SVC_SOURCE_ARXIV_URL: arxiv.url }, closes: [arxiv] });
 */
export async function startWindow(executablePath: string, options: WindowOptions = {}): Promise<BrowserWindow> {
  const dirs = options.dirs ?? windowDirs();
  const [launched, started] = await Promise.allSettled([launchBrowser(executablePath), launchShell({ ...dirs.shellEnv, ...options.env })]);
  const browser = launched.status === 'fulfilled' ? launched.value : undefined;
  const shell = started.status === 'fulfilled' ? started.value : undefined;
  const close = async () => {
    await browser?.close();
    await shell?.stop();
    for (const opened of options.closes ?? []) await opened.close();
    dirs.cleanup();
  };
  try {
    if (launched.status === 'rejected') throw launched.reason;
    if (started.status === 'rejected') throw started.reason;
    const session = await exchange(shell!, shell!.code);
    const url = async (p: string) => `${shell!.line.renderer_origin}${p}#launch=${await freshCode(shell!, session)}`;
    return {
      browser,
      shell: shell!,
      session,
      dirs,
      api: async (method, p, body) => okJson(await backendRequest(session, method, p, { body }), method, p),
      url,
      async open(p, { colorScheme, ...page } = {}) {
        const opened = await openPage(browser, await url(p), page);
        if (colorScheme) await opened.page.emulateMedia({ colorScheme });
        await opened.page.waitForSelector('nav.nav', { timeout: 20_000 });
        return opened;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
