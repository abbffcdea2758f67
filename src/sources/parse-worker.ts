/**
 * One large source answer parsed on its own thread (parse-page.ts starts it):
 * decodes the bytes it was handed, runs the named parser of the named module,
 * cuts the records to the caps and posts back the page and the notes, or the
 * error. The records follow in batches, each posted when the event loop asks
 * for it (page-batches.ts says why). One answer per worker; it ends when the
 * last batch is taken.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeChunks } from '../util/bounded-body.js';
import { capPage } from './cap-record.js';
import type { SourceCaps } from './caps.js';
import { splitRecords } from './page-batches.js';
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

async function run(job: Job): Promise<{ answer: WorkerAnswer<unknown>; batches: unknown[][] }> {
  try {
    const text = job.text ?? decodeChunks(job.chunks!);
    const parse = (await import(job.module))[job.name];
    if (typeof parse !== 'function') throw new Error(`${job.module} exports no parser ${job.name}`);
    const page = parse(text, ...job.args);
    const capped = capPage(page, job.caps);
    const { head, batches } = splitRecords(page);
    return { answer: { page: head, capped, batches: batches.length }, batches };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return { answer: { error: { name: e.name, message: e.message, parse: err instanceof ParseError } }, batches: [] };
  }
}

if (parentPort && workerData?.module) {
  const port = parentPort;
  const { answer, batches } = await run(workerData as Job);
  port.postMessage(answer);
  if (batches.length === 0) port.close();
  else {
    let next = 0;
    port.on('message', () => {
      port.postMessage(batches[next]);
      batches[next++] = []; // posted: a copy is on its way, this one can go
      if (next === batches.length) port.close();
    });
  }
}
