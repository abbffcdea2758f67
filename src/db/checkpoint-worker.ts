/**
 * The checkpointer's thread (checkpointer.ts): a connection of its own that
 * copies committed WAL frames into the database file every few milliseconds
 * with PASSIVE checkpoints, which never wait for the writer or for readers.
 * Stops on any message; posts {t: 'stopped'} after closing its connection.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Sqlite from 'better-sqlite3';

if (parentPort && workerData?.checkpoint) {
  const port = parentPort;
  const { database, everyMs } = workerData as { database: string; everyMs: number; checkpoint: true };
  const db = new Sqlite(database, { fileMustExist: true });
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const timer = setInterval(() => {
    try {
      checkpoint.run();
    } catch {
      // Busy (the writer's own backstop checkpoint is running) or the file is going away: next tick.
    }
  }, everyMs);
  port.once('message', () => {
    clearInterval(timer);
    db.close();
    port.postMessage({ t: 'stopped' });
    port.close();
  });
}
