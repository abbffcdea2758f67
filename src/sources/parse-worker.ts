/**
 * One large source answer parsed on its own thread (parse-page.ts starts it):
 * decodes the bytes it was handed, runs the named parser of the named module,
 * cuts the records to the caps and posts back the page and the notes, or the
 * error. One answer per worker; it ends when it has posted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeChunks } from '../util/bounded-body.js';
import { capPage } from './cap-record.js';
import type { SourceCaps } from './caps.js';
import type { WorkerAnswer } from './parse-page.js';
import { ParseError } from './types.js';

interface Job {
  module: string;
  name: string;
  args: unknown[];
  caps: SourceCaps;
  chunks?: Uint8Array[];
  text?: string;
}

async function run(job: Job): Promise<WorkerAnswer<unknown>> {
  try {
    const text = job.text ?? decodeChunks(job.chunks!);
    const parse = (await import(job.module))[job.name];
    if (typeof parse !== 'function') throw new Error(`${job.module} exports no parser ${job.name}`);
    const page = parse(text, ...job.args);
    return { page, capped: capPage(page, job.caps) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return { error: { name: e.name, message: e.message, parse: err instanceof ParseError } };
  }
}

if (parentPort && workerData?.module) parentPort.postMessage(await run(workerData as Job));
