/**
 * Parsing one source answer without stalling the event loop: a small body is
 * parsed where it is, a large one in a worker thread (parse-worker.ts) that
 * takes the body's bytes without copying them. Either way the records are cut
 * to the caps (cap-record.ts) before they come back, so an oversize value is
 * never copied across, stored or indexed.
 *
 * Why a worker: the XML sources parse at a few MB/s (fast-xml-parser), so one
 * large page held /api/health for seconds; JSON is faster but a page of tens
 * of MB still blocks for a long moment. A worker costs tens of ms to start,
 * which no small page should pay. Its records come back in batches, the next
 * asked for after a turn of the event loop (page-batches.ts).
 */
import { Worker } from 'node:worker_threads';
import { capPage, type CapNote } from './cap-record.js';
import type { SourceCaps } from './caps.js';
import { ParseError } from './types.js';
import { ioTurn } from '../util/io-turn.js';

/** A pure parser of one answer, and where a worker finds it: the module that exports it under its own name. */
export interface PageParser<A extends unknown[], T> {
  module: string;
  name: string;
  parse: (text: string, ...args: A) => T;
}

/** `parse`, exported by the module at `module` (its import.meta.url) under the name it has. */
export function pageParser<A extends unknown[], T>(module: string, parse: (text: string, ...args: A) => T): PageParser<A, T> {
  return { module, name: parse.name, parse };
}

/** A body to parse: text, and, for an answer read from the network, its bytes for a worker to take. */
export interface ParseInput {
  readonly text: string;
  /** Its size in bytes, when known without encoding it. */
  readonly size?: number;
  /** Hands the body's bytes over, once; `text` cannot be read after. */
  takeChunks?(): Uint8Array[];
}

/** What a parser answers, with notes of what was cut to the caps when anything was. */
export type Parsed<T> = T & { capped?: CapNote[] };

export interface ParseOptions {
  caps: SourceCaps;
  /** Stops a parse in a worker (the worker is terminated); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Bodies from this size up are parsed in a worker: a 100-record XML page is about this size. */
export const OFF_THREAD_BYTES = 256 * 1024;

/** What the worker posts first: the page without its records and how many batches of them follow, or the error. */
export type WorkerAnswer<T> = { page: T; capped: CapNote[]; batches: number } | { error: { name: string; message: string; parse: boolean } };

export async function parsePage<A extends unknown[], T>(parser: PageParser<A, T>, input: ParseInput, options: ParseOptions, ...args: A): Promise<Parsed<T>> {
  const size = input.size ?? Buffer.byteLength(input.text);
  if (size < OFF_THREAD_BYTES) return withNotes(parser.parse(input.text, ...args), options.caps);
  return parseInWorker(parser, input, options, args);
}

function withNotes<T>(page: T, caps: SourceCaps): Parsed<T> {
  return attach(page, capPage(page, caps));
}

function attach<T>(page: T, capped: CapNote[]): Parsed<T> {
  if (capped.length > 0) (page as Parsed<T>).capped = capped;
  return page as Parsed<T>;
}

function parseInWorker<A extends unknown[], T>(parser: PageParser<A, T>, input: ParseInput, options: ParseOptions, args: A): Promise<Parsed<T>> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const chunks = input.takeChunks?.();
  // Each chunk's buffer moves to the worker (a pooled one is copied instead: Node will not move it).
  const transferList = chunks && [...new Set(chunks.map((c) => c.buffer as ArrayBuffer))];
  const workerData = { module: parser.module, name: parser.name, args, caps: options.caps, ...(chunks ? { chunks } : { text: input.text }) };
  const worker = new Worker(new URL('./parse-worker.js', import.meta.url), { workerData, transferList });
  return new Promise<Parsed<T>>((resolve, reject) => {
    const stop = () => {
      void worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
    const settle = () => signal?.removeEventListener('abort', stop);
    worker.once('message', (answer: WorkerAnswer<T>) => {
      if ('error' in answer) {
        settle();
        reject(answer.error.parse ? new ParseError(answer.error.message) : Object.assign(new Error(answer.error.message), { name: answer.error.name }));
        return;
      }
      takeRecords(worker, answer.page, answer.batches).then(() => {
        settle();
        resolve(attach(answer.page, answer.capped));
      }, reject);
    });
    // Out of memory, or a crash of the worker itself: the answer could not be read.
    worker.once('error', (err) => {
      settle();
      reject(new ParseError(`the answer could not be parsed (${err instanceof Error ? err.name : 'worker error'})`));
    });
    worker.once('exit', () => {
      settle();
      reject(new ParseError('the answer could not be parsed (the parser stopped)'));
    });
  });
}

/**
 * The page's records, a batch at a time: each asked for after a turn of the event loop, so the
 * requests waiting meanwhile are answered between two batches' deserialisation (page-batches.ts).
 */
async function takeRecords<T>(worker: Worker, page: T, batches: number): Promise<void> {
  const records = (page as { records: unknown[] }).records;
  for (let taken = 0; taken < batches; taken++) {
    await ioTurn();
    const batch = await new Promise<unknown[]>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage('next');
    });
    for (const record of batch) records.push(record);
  }
}
