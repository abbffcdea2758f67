/**
 * Checkpoints off the event loop. SQLite's automatic checkpoint runs inside
 * the commit that takes the WAL past wal_autocheckpoint pages, on the
 * writer's thread: during a large run that was a quarter of merge time, and
 * each one a stall of the event loop with an fsync in it. While a process
 * merges runs, a worker thread (checkpoint-worker.ts) checkpoints instead,
 * and the writer's own automatic checkpoint stays as a backstop at a larger
 * threshold, for when the worker falls behind (WAL readers or a slow disk).
 * The worker is unreferenced: it never keeps a CLI process alive.
 */
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

/** How often the worker checkpoints, and the writer's backstop meanwhile (pages; SQLite's default is 1000). */
const EVERY_MS = 50;
const BACKSTOP_PAGES = 10_000;
const DEFAULT_PAGES = 1000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(db: Database, database: string): Checkpointer {
  if (db.memory || database === ':memory:') return { stop: async () => {} };
  const worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { database, everyMs: EVERY_MS, checkpoint: true } });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A worker that fails leaves checkpoints to the writer, as they were.
  worker.once('error', () => db.open && db.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`));
  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        worker.ref(); // waiting for it must keep the process alive
        worker.postMessage('stop');
        await exited;
        if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
      })()),
  };
}
