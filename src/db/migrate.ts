/**
 * Applies migrations in order. Each step runs in one transaction that checks
 * the schema before and after and advances the marker (PRAGMA user_version
 * plus a schema_migrations row), so a crash leaves either the old schema or the
 * new one. Applied steps are tracked one by one, so a step numbered below the
 * marker that has not run yet (a feature added later) still runs.
 */
import type { Database } from 'better-sqlite3';
import { SvcError } from '../errors.js';
import type { Migration } from './migration.js';

function objectExists(db: Database, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
}

export function migrate(db: Database, migrations: Migration[], now: () => string): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at_utc TEXT NOT NULL
  )`);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const marker = db.pragma('user_version', { simple: true }) as number;
  if (marker > known) {
    throw new SvcError(500, 'schema_too_new', `The database has schema ${marker}, newer than this svc knows (${known}); upgrade svc.`);
  }
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const step of ordered) {
    if (applied.has(step.version)) continue;
    db.transaction(() => {
      for (const name of step.creates) {
        if (objectExists(db, name)) {
          throw new SvcError(500, 'schema_invalid', `Migration ${step.version} (${step.name}) found ${name} already present; the database is inconsistent.`);
        }
      }
      step.up(db);
      for (const name of step.creates) {
        if (!objectExists(db, name)) {
          throw new SvcError(500, 'schema_invalid', `Migration ${step.version} (${step.name}) did not create ${name}.`);
        }
      }
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at_utc) VALUES (?, ?, ?)').run(step.version, step.name, now());
      const highest = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
      db.pragma(`user_version = ${highest}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
