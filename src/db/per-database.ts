import type { Database } from 'better-sqlite3';

/**
 * A room's prepared statements, built once per connection: `build` prepares
 * them on first use and every later call answers the same object.
 */
export function perDatabase<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let built = cache.get(db);
    if (!built) {
      built = build(db);
      cache.set(db, built);
    }
    return built;
  };
}
