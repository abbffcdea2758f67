/**
 * One warm PDF child per process. Pages are parsed one at a time (a queue);
 * each request has its own timeout from the moment the child takes it. The
 * child is replaced after any answer that is not a clean page (timeout,
 * refusal, malformed input, a crash), after a cancelled request, and after
 * `pdfChildPages` pages, so no state of a hostile file outlives its answer.
 * A page is asked for by the document's verified SHA-256 first; the bytes go
 * to the child only when it does not hold that document already parsed.
 * The child gets no environment, no stdio and, through Node's permission
 * model, read access only to itself and pdfjs-dist.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EvidenceLimits } from './limits.js';
import { PDFJS_VERSION, type ChildAnswer, type ChildMessage } from './pdf-protocol.js';

export type PoolOutcome =
  | { kind: 'answer'; answer: ChildAnswer }
  | { kind: 'timeout' }
  | { kind: 'unavailable'; reason: string; message: string }
  | { kind: 'limit'; reason: string; message: string }
  | { kind: 'cancelled' }
  /** The bytes, asked for because the child did not hold them, could not be had (the loader's error). */
  | { kind: 'source_failed'; error: unknown };

/** A document to read a page of. */
export interface PdfSource {
  /** The SHA-256 the file was verified against at this read: the child's key for its parsed document. */
  sha256: string;
  /** The verified bytes of that hash, loaded only when the child does not hold the document. */
  bytes(): Promise<Uint8Array>;
}

export interface PdfPool {
  extract(source: PdfSource, page: number, signal?: AbortSignal): Promise<PoolOutcome>;
  /** Start the child now, if none is running, so the first page does not wait for its start. */
  warm(): void;
  /** The current child's pid (tests kill it). */
  pid(): number | undefined;
  /** `bytesSent`: requests whose document's bytes went to a child; `reused`: pages read from a document the child held. */
  stats(): { spawned: number; pages: number; bytesSent: number; reused: number; lastSpawnMs: number | null };
  close(): void;
}

interface Warm {
  child: ChildProcess;
  ready: Promise<string>;
  pages: number;
}

function childArgs(): { script: string; argv: string[]; execArgv: string[] } {
  const script = fileURLToPath(new URL('./pdf-child.js', import.meta.url));
  const require = createRequire(import.meta.url);
  const pkg = fs.realpathSync(require.resolve('pdfjs-dist/package.json'));
  const root = path.dirname(pkg);
  const entry = path.join(root, 'legacy', 'build', 'pdf.mjs');
  const fonts = path.join(root, 'standard_fonts') + path.sep;
  const projectRoot = path.resolve(path.dirname(script), '..', '..', '..');
  const execArgv = [
    '--max-old-space-size=512',
    '--experimental-permission',
    `--allow-fs-read=${root}${path.sep}`,
    `--allow-fs-read=${path.dirname(script)}${path.sep}`,
    `--allow-fs-read=${path.join(projectRoot, 'package.json')}`,
    '--no-warnings',
  ];
  return { script, argv: [pathToFileURL(entry).href, fonts], execArgv };
}

/** The source's bytes, or the error that kept them (never a rejection: nobody may be awaiting it yet). */
function settleBytes(source: PdfSource): Promise<{ data: Uint8Array } | { error: unknown }> {
  return source.bytes().then((data) => ({ data }), (error: unknown) => ({ error }));
}

export function createPdfPool(limits: EvidenceLimits): PdfPool {
  let warm: Warm | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;
  let spawned = 0;
  let pagesDone = 0;
  let bytesSent = 0;
  let reused = 0;
  let lastSpawnMs: number | null = null;
  let closed = false;

  function kill(w: Warm | undefined): void {
    if (!w) return;
    if (warm === w) warm = undefined;
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  }

  function spawnChild(): Warm {
    const { script, argv, execArgv } = childArgs();
    const started = performance.now();
    const child = fork(script, argv, { execArgv, env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', cwd: path.dirname(script) });
    spawned++;
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('start_timeout')), limits.pdfStartMs);
      child.on('message', (m: ChildMessage) => {
        if (m.kind !== 'ready') return;
        clearTimeout(timer);
        lastSpawnMs = performance.now() - started;
        resolve(m.version);
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('exited'));
      });
      child.once('error', () => reject(new Error('spawn_failed')));
    });
    ready.catch(() => {});
    const w: Warm = { child, ready, pages: 0 };
    child.once('exit', () => {
      if (warm === w) warm = undefined;
    });
    return w;
  }

  async function run(source: PdfSource, page: number, signal?: AbortSignal): Promise<PoolOutcome> {
    if (closed) return { kind: 'unavailable', reason: 'parser_closed', message: 'The PDF reader is shutting down.' };
    if (signal?.aborted) return { kind: 'cancelled' };
    const w = (warm ??= spawnChild());
    // A child that has read nothing holds no document: its bytes are read while it starts and sent with the first ask.
    const early = w.pages === 0 ? settleBytes(source) : undefined;
    let version: string;
    try {
      version = await w.ready;
    } catch (err) {
      kill(w);
      return { kind: 'unavailable', reason: 'parser_start_failed', message: `The PDF parser process did not start (${(err as Error).message}).` };
    }
    if (version !== PDFJS_VERSION) {
      kill(w);
      return { kind: 'unavailable', reason: 'parser_version_mismatch', message: `The installed pdfjs-dist is ${version}, not the contract's ${PDFJS_VERSION}.` };
    }
    const id = nextId++;
    const outcome = await new Promise<PoolOutcome>((resolve) => {
      let settled = false;
      const done = (o: PoolOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        w.child.off('message', onMessage);
        w.child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        resolve(o);
      };
      const childLimits = { pages: limits.pdfPages, codepoints: limits.pdfCodepoints, forms: limits.pdfForms, treeNodes: limits.pdfTreeNodes, treeDepth: limits.pdfTreeDepth };
      const ask = (data?: Uint8Array) => {
        try {
          w.child.send({ id, sha256: source.sha256, data, page, limits: childLimits });
        } catch {
          done({ kind: 'unavailable', reason: 'parser_exited', message: 'The PDF parser process could not be reached.' });
        }
      };
      const sendBytes = async () => {
        const loaded = await (early ?? settleBytes(source));
        if ('error' in loaded) return done({ kind: 'source_failed', error: loaded.error });
        const data = loaded.data;
        if (settled) return;
        bytesSent++;
        // The parse starts now: its timeout does not include the parent's read of the bytes.
        clearTimeout(timer);
        timer = setTimeout(onTimeout, limits.pdfTimeoutMs);
        ask(data);
      };
      const onMessage = (m: ChildMessage) => {
        if (m.kind === 'need_bytes' && m.id === id) return void sendBytes();
        if (m.kind !== 'answer' || m.id !== id) return;
        if (Buffer.byteLength(m.json, 'utf8') > limits.pdfJsonBytes) {
          return done({ kind: 'limit', reason: 'child_json', message: `The parser's answer exceeds ${limits.pdfJsonBytes} bytes of JSON.` });
        }
        const answer = JSON.parse(m.json) as ChildAnswer;
        if (answer.reused) reused++;
        done({ kind: 'answer', answer });
      };
      const onExit = () => done({ kind: 'unavailable', reason: 'parser_exited', message: 'The PDF parser process ended before answering.' });
      const onAbort = () => done({ kind: 'cancelled' });
      const onTimeout = () => done({ kind: 'timeout' });
      let timer = setTimeout(onTimeout, limits.pdfTimeoutMs);
      w.child.on('message', onMessage);
      w.child.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (early) void sendBytes();
      else ask();
    });
    w.pages++;
    pagesDone++;
    // A source that failed in the parent sent the child nothing: it stays, with what it holds.
    const clean = outcome.kind === 'source_failed' || (outcome.kind === 'answer' && (outcome.answer.status === 'extracted' || outcome.answer.status === 'no_text' || outcome.answer.status === 'out_of_range'));
    if (!clean || w.pages >= limits.pdfChildPages) kill(w);
    return outcome;
  }

  return {
    extract(source, page, signal) {
      const next = queue.then(() => run(source, page, signal));
      queue = next.catch(() => {});
      return next;
    },
    warm() {
      if (!closed) warm ??= spawnChild();
    },
    pid: () => warm?.child.pid,
    stats: () => ({ spawned, pages: pagesDone, bytesSent, reused, lastSpawnMs }),
    close() {
      closed = true;
      kill(warm);
    },
  };
}
