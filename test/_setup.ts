/**
 * Test helpers: a temp data/state dir per test, a real server on port 0 (whose
 * internal_error fails the test that caused it), raw HTTP with full control of
 * the headers, and the CLI as a real child process.
 * Nothing here touches $HOME, port 8742 or the network beyond loopback.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import { createContext, type Context, type ContextOptions } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer, type RunningServer, type StartOptions } from '../server/listen.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');

export function fixture(relative: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES, relative));
}

export interface TempDirs {
  root: string;
  dataDir: string;
  stateDir: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function tempDirs(): TempDirs {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const dataDir = path.join(root, 'data');
  const stateDir = path.join(root, 'state');
  return {
    root,
    dataDir,
    stateDir,
    env: { SVC_DATA_DIR: dataDir, SVC_STATE_DIR: stateDir, SVC_DISABLE_SCHEDULER: '1', HOME: root },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Send no Host header at all. */
  noHost?: boolean;
}

/** One HTTP request over loopback with exactly the headers given. */
export function rawRequest(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers: req.headers ?? {}, setHost: !req.noHost, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    request.on('error', reject);
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}

/**
 * A server's answer nobody planned: server/errors.ts logs "unexpected error"
 * before it answers 500 internal_error. A test that causes one fails, even when
 * what it asserts holds (a 500 an assertion never looked at, a background step).
 */
const INTERNAL_ERROR = / error unexpected error\b/;
let unexpected: string[] = [];
/** What the running test said it provokes on purpose (internalErrorPlanned); cleared after each test. */
let planned: RegExp[] = [];

/**
 * The running test causes an internal_error on purpose (a fault it plants to show nothing is left
 * half-done): log lines matching `line` do not fail it. Any other internal_error still does.
 */
export function internalErrorPlanned(line: RegExp): void {
  planned.push(line);
}

/** The log sink of a server a test starts: each line into `lines`, and an internal_error noted against the running test. */
export function serverLogSink(lines: string[]): (line: string) => void {
  return (line) => {
    lines.push(line);
    if (INTERNAL_ERROR.test(line)) unexpected.push(line);
  };
}

// On uvu's one suite, which every test file uses: after each test, the internal_errors logged while it ran fail it.
// The lines are printed as well: a test that also failed on its own reaches this hook from uvu's catch, where a
// throw ends the file's run (counted failed by test/run.mjs) without uvu's report of either error.
test.after.each(() => {
  const lines = unexpected.filter((line) => !planned.some((p) => p.test(line)));
  unexpected = [];
  planned = [];
  if (lines.length === 0) return;
  console.error(`A test server answered internal_error:\n${lines.join('\n')}`);
  throw new Error(`a test server answered internal_error (its log says why):\n${lines.join('\n')}`);
});

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  token?: string | null;
}

/** A web Response read as rawRequest reads a socket's answer (header names lower case, set-cookie a list). */
async function rawResponse(res: Response): Promise<RawResponse> {
  const text = await res.text();
  const headers: http.IncomingHttpHeaders = {};
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  return { status: res.status, headers, text, json: () => JSON.parse(text) };
}

export interface TestServer {
  ctx: Context;
  server: RunningServer;
  port: number;
  token: string;
  dirs: TempDirs;
  logLines: string[];
  /** A request over the socket with Host and token set (override either through headers; token: null sends none). */
  request(method: string, path: string, options?: RequestOptions): Promise<RawResponse>;
  /** The same request answered by the assembled app in this process (server.app), for tests where no socket is the subject. */
  inProcess(method: string, path: string, options?: RequestOptions): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: StartOptions & { env?: Record<string, string>; context?: Omit<ContextOptions, 'env' | 'log'> } = {},
): Promise<TestServer> {
  const dirs = tempDirs();
  const logLines: string[] = [];
  const ctx = createContext({ ...options.context, env: { ...dirs.env, ...options.env }, log: createLogger({ level: 'debug', sink: serverLogSink(logLines) }) });
  const server = await startServer(ctx, { port: 0, ...options });
  const port = server.port;
  const asked = (opts: RequestOptions) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
    const token = opts.token === undefined ? server.runtime.token : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    return { headers: { ...headers, ...opts.headers }, body };
  };
  return {
    ctx,
    server,
    port,
    token: server.runtime.token,
    dirs,
    logLines,
    request(method, p, opts = {}) {
      const { headers, body } = asked(opts);
      return rawRequest(port, { method, path: p, headers, body });
    },
    async inProcess(method, p, opts = {}) {
      const { headers, body } = asked(opts);
      return rawResponse(await server.app.request(`http://127.0.0.1:${port}${p}`, { method, headers, body }));
    },
    async close() {
      await server.close();
      dirs.cleanup();
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node bin/svc.js …` as a real process (in the checkout unless `cwd` names another folder). */
export function runCli(args: string[], options: { env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { PATH: process.env.PATH, NO_COLOR: '1', ...options.env };
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), ...args], { cwd: options.cwd ?? ROOT, env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A command that exits before reading stdin closes the pipe: EPIPE here is not the test's failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

/** Wait until `check` answers something truthy, polling. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The environment of a child svc on a machine with no DNS (test/_no-dns.ts): a host name fails at once with ENOTFOUND. */
export function noDnsEnv(): { NODE_OPTIONS: string } {
  return { NODE_OPTIONS: `--import ${pathToFileURL(path.join(ROOT, 'dist', 'test', '_no-dns.js')).href}` };
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
