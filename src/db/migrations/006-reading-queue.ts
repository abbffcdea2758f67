import type { Migration } from '../migration.js';

/**
 * The reading queue: papers saved to read later, each once, with a status
 * (unread or read). Removing a paper from the queue leaves the paper alone;
 * deleting the paper from the corpus removes its queue row.
 */
export const readingQueue: Migration = {
  version: 6,
  name: 'reading-queue',
  creates: ['reading_queue', 'reading_queue_by_saved'],
  up(db) {
    db.exec(`
      CREATE TABLE reading_queue (
        document_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN ('unread', 'read')),
        saved_at_utc TEXT NOT NULL,
        read_at_utc TEXT,
        updated_at_utc TEXT NOT NULL
      );
      CREATE INDEX reading_queue_by_saved ON reading_queue (saved_at_utc DESC, document_id DESC);
    `);
  },
};
