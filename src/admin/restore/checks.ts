/** The checks a restore makes of what it is given: the vault's parent folder and the bundle's database. */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { badRequest, SvcError } from '../../errors.js';
import { secretsFacts, type BundleSecretsFacts } from './facts.js';

export function checkVaultParent(given: string): string {
  if (!path.isAbsolute(given)) throw badRequest('vault_parent_invalid', 'vault_parent (--vault-parent) must be an absolute path to an existing folder.');
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch {
    throw badRequest('vault_parent_missing', 'vault_parent (--vault-parent) does not exist; create the folder first.');
  }
  if (!fs.statSync(real).isDirectory()) throw badRequest('vault_parent_invalid', 'vault_parent (--vault-parent) is not a folder.');
  return real;
}

/** The Library vault the database records (none before schema 16, or none created). */
function recordedVaultId(db: Sqlite.Database): string | null {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'library_vaults'").get() !== undefined;
  if (!hasTable) return null;
  return (db.prepare('SELECT vault_id FROM library_vaults WHERE id = 1').pluck().get() as string | undefined) ?? null;
}

export function checkDatabase(file: string): { fkViolations: number; tables: string[]; secrets: BundleSecretsFacts; vaultId: string | null } {
  let db: Sqlite.Database;
  try {
    db = new Sqlite(file, { fileMustExist: true });
  } catch {
    throw new SvcError(422, 'bundle_invalid', 'The database in the bundle cannot be opened.');
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new SvcError(422, 'bundle_invalid', 'The database in the bundle fails its integrity check.');
    const violations = db.pragma('foreign_key_check') as { table: string }[];
    return { fkViolations: violations.length, tables: [...new Set(violations.map((v) => v.table))], secrets: secretsFacts(db), vaultId: recordedVaultId(db) };
  } catch (err) {
    if (err instanceof SvcError) throw err;
    throw new SvcError(422, 'bundle_invalid', 'The database in the bundle cannot be read.');
  } finally {
    db.close();
  }
}
