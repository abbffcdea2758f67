/**
 * Databases of earlier versions hold the sqlite-vec index (the vec0 table
 * embedding_index, one bit a dimension), replaced by the HNSW file. SQLite
 * drops a virtual table only through its module, so sqlite-vec is loaded for
 * that alone, once, by the first index build; where it cannot load, the old
 * table stays (nothing reads it; backups leave it out).
 */
import type { Context } from '../context.js';

export async function dropLegacyVec0(ctx: Context): Promise<void> {
  const legacy = ctx.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embedding_index' AND sql LIKE '%USING vec0%'").get();
  if (!legacy) return;
  try {
    const sqliteVec = await import('sqlite-vec');
    sqliteVec.load(ctx.db);
    ctx.db.exec('DROP TABLE embedding_index');
  } catch (err) {
    ctx.log.warn('the sqlite-vec table of an earlier version could not be dropped', { error: err instanceof Error ? err.message : String(err) });
  }
}
