/**
 * A small pool of hash-worker.ts threads copying files into the bundle, each
 * to an offset fixed in advance, so files are read, hashed and written in
 * parallel on every core. A job goes to whichever thread is free.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SvcError } from '../errors.js';

export const COPY_CHUNK = 1 << 20;
const MAX_THREADS = 4;

export interface CopyJob {
  from: string;
  offset: number;
  size: number;
}

export type CopyResult = { sha256: string } | { fail: 'missing' | 'changed' };

interface Pending {
  job: CopyJob;
  resolve: (r: CopyResult) => void;
  reject: (e: unknown) => void;
}

export class Copiers {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<Worker, Map<number, Pending>>();
  private nextK = 0;
  private failure: unknown = null;
  private stopped = false;

  constructor(fd: number, files: number) {
    const count = Math.max(1, Math.min(MAX_THREADS, os.availableParallelism(), files));
    for (let j = 0; j < count; j++) {
      const worker = new Worker(new URL('./hash-worker.js', import.meta.url), { workerData: { fd, chunk: COPY_CHUNK } });
      this.running.set(worker, new Map());
      worker.on('message', (m: { k: number } & CopyResult) => {
        const mine = this.running.get(worker)!;
        const p = mine.get(m.k);
        mine.delete(m.k);
        this.idle.push(worker);
        this.dispatch();
        p?.resolve('sha256' in m ? { sha256: m.sha256 } : { fail: m.fail });
      });
      const lost = (error: unknown) => {
        if (this.stopped) return;
        this.failure ??= error;
        for (const jobs of this.running.values()) {
          for (const p of jobs.values()) p.reject(this.failure);
          jobs.clear();
        }
        for (const p of this.queue.splice(0)) p.reject(this.failure);
      };
      worker.once('error', lost);
      worker.once('exit', (code) => lost(new SvcError(500, 'backup_copy_failed', `Copying the backup's files stopped early (exit ${code}).`)));
      this.all.push(worker);
      this.idle.push(worker);
    }
  }

  copy(job: CopyJob): Promise<CopyResult> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const p = this.queue.shift()!;
      const k = this.nextK++;
      this.running.get(worker)!.set(k, p);
      worker.postMessage({ k, ...p.job });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
