/**
 * Starts snapshot-worker.ts: the facts of the snapshot arrive first (the
 * backup lists its vault files from them and starts copying at once) and the
 * snapshot file is ready when `done` resolves.
 */
import { Worker } from 'node:worker_threads';
import { SvcError } from '../errors.js';
import type { SnapshotFacts } from './snapshot-worker.js';

export type { SnapshotFacts };

export interface Snapshotting {
  facts: Promise<SnapshotFacts>;
  done: Promise<void>;
  stop(): Promise<void>;
}

export function startSnapshot(database: string, snapshot: string): Snapshotting {
  const worker = new Worker(new URL('./snapshot-worker.js', import.meta.url), { workerData: { database, snapshot } });
  let gotFacts!: (f: SnapshotFacts) => void;
  let finished!: () => void;
  let failFacts!: (e: unknown) => void;
  let failDone!: (e: unknown) => void;
  const facts = new Promise<SnapshotFacts>((resolve, reject) => ((gotFacts = resolve), (failFacts = reject)));
  const done = new Promise<void>((resolve, reject) => ((finished = resolve), (failDone = reject)));
  facts.catch(() => {});
  done.catch(() => {});
  const fail = (e: unknown) => {
    failFacts(e);
    failDone(e);
  };
  const failed = (message: string, code?: string) => fail(new SvcError(500, 'backup_snapshot_failed', `The database snapshot failed: ${message}${code && !message.includes(code) ? ` (${code})` : ''}.`.replace(/\.\.$/, '.')));
  worker.on('message', (m: { t: 'facts'; facts: SnapshotFacts } | { t: 'done' } | { t: 'error'; message: string; code?: string }) => (m.t === 'facts' ? gotFacts(m.facts) : m.t === 'error' ? failed(m.message, m.code) : finished()));
  // A thrown error may arrive as a plain object without its message.
  worker.once('error', (err: { message?: unknown; code?: unknown }) => failed(typeof err?.message === 'string' && err.message ? err.message : 'the worker stopped with no message', typeof err?.code === 'string' ? err.code : undefined));
  worker.once('exit', (code) => fail(new SvcError(500, 'backup_snapshot_failed', `The database snapshot stopped early (exit ${code}).`)));
  return { facts, done, stop: async () => void (await worker.terminate()) };
}
