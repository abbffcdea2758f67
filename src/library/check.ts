/**
 * `svc library check`: verify every retained file's size and SHA-256 and list
 * whatever disagrees with the catalog (missing, changed, unsafe, orphan,
 * leftover lock). It reads only; it never repairs, moves or deletes.
 */
import type { Context } from '../context.js';
import { scanVault, type Problem } from './scan.js';
import { libraryOf, requireVault } from './service.js';
import { openVault } from './vault.js';

export interface CheckReport {
  version: 1;
  vault_id: string;
  checked_at_utc: string;
  files_checked: number;
  ok: boolean;
  problems: Problem[];
}

/** @example checkLibrary(ctx).ok */
export function checkLibrary(ctx: Context): CheckReport {
  const lib = libraryOf(ctx);
  const vault = requireVault(lib);
  const rows = lib.catalog().retained(vault.vault_id);
  const ov = openVault(vault);
  try {
    const problems = scanVault(ov, rows, { deep: true, lock: true });
    return { version: 1, vault_id: vault.vault_id, checked_at_utc: ctx.nowIso(), files_checked: rows.length, ok: problems.length === 0, problems };
  } finally {
    ov.close();
  }
}
