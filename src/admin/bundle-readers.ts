/**
 * A small pool of hash-worker.ts threads reading a backup's files. File k
 * goes to worker k % count, so files are read and hashed in parallel while
 * the writer takes them in order. Chunk buffers travel to this thread and
 * back (transferred, never copied); each worker has a fixed number out at
 * once, which bounds memory whatever the speed of the disk.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SvcError } from '../errors.js';

export const READ_CHUNK = 1 << 20;
const BUFFERS_PER_WORKER = 8;
const MAX_WORKERS = 4;

export type ReaderMessage =
  | { t: 'open'; size: number; mode: number; mtimeMs: number }
  | { t: 'chunk'; buf: ArrayBuffer; n: number }
  | { t: 'done'; sha256: string }
  | { t: 'fail'; code: 'missing' | 'changed' }
  | { t: 'crash'; error: unknown };

class Queue {
  private items: ReaderMessage[] = [];
  private waiter: ((m: ReaderMessage) => void) | null = null;

  push(m: ReaderMessage): void {
    const w = this.waiter;
    this.waiter = null;
    if (w) w(m);
    else this.items.push(m);
  }

  next(): Promise<ReaderMessage> {
    const m = this.items.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

export class Readers {
  private readonly workers: Worker[] = [];
  private readonly queues: Queue[] = [];
  private readonly owners = new Map<ArrayBuffer, Worker>();
  private stopped = false;

  /** `ready`: a file that does not exist yet (the database snapshot) is handed out only once it resolves. */
  constructor(files: { from: string; ready?: Promise<void> }[]) {
    const count = Math.max(1, Math.min(MAX_WORKERS, os.availableParallelism(), files.length));
    for (let j = 0; j < count; j++) {
      const worker = new Worker(new URL('./hash-worker.js', import.meta.url), { workerData: { chunk: READ_CHUNK, buffers: BUFFERS_PER_WORKER } });
      const queue = new Queue();
      worker.on('message', (m: ReaderMessage) => {
        if (m.t === 'chunk') this.owners.set(m.buf, worker);
        queue.push(m);
      });
      worker.once('error', (error) => queue.push({ t: 'crash', error }));
      worker.once('exit', (code) => {
        if (!this.stopped) queue.push({ t: 'crash', error: new SvcError(500, 'backup_read_failed', `Reading the backup's files stopped early (exit ${code}).`) });
      });
      this.workers.push(worker);
      this.queues.push(queue);
    }
    void this.handOut(files);
  }

  private async handOut(files: { from: string; ready?: Promise<void> }[]): Promise<void> {
    for (const [k, f] of files.entries()) {
      if (f.ready) {
        try {
          await f.ready;
        } catch {
          return; // the writer sees the same failure when it reaches this file
        }
      }
      if (this.stopped) return;
      this.workers[k % this.workers.length]!.postMessage({ file: f.from });
    }
    for (const w of this.workers) w.postMessage({ end: true });
  }

  /** The next message about source `k` (messages for one source arrive in order). */
  next(k: number): Promise<ReaderMessage> {
    return this.queues[k % this.queues.length]!.next();
  }

  /** Give a chunk's buffer back to the worker that filled it; false when it is not one of theirs. */
  release(buf: ArrayBufferLike): boolean {
    const worker = this.owners.get(buf as ArrayBuffer);
    if (!worker) return false;
    this.owners.delete(buf as ArrayBuffer);
    if (!this.stopped) worker.postMessage({ buf }, [buf as ArrayBuffer]);
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
