/**
 * Undo copies: what a restore set aside (the database it replaced, a vault folder that was where
 * the restored one went, report files), kept under the data directory until deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { readOwnedFile } from '../../util/owned-files.js';
import { requireConfirm } from '../erase.js';
import type { UndoCopiesDeleted, UndoCopy } from '../../wire/admin.js';

export const UNDO_DELETE_CONFIRM = 'delete-undo-copies';

export const undoRoot = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-undo');

function undoCopies(ctx: Context): string[] {
  const root = undoRoot(ctx);
  let stamps: string[] = [];
  try {
    stamps = fs.readdirSync(root);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const s of stamps) {
    const dir = path.join(root, s);
    out.push(dir);
    const aside = readOwnedFile(path.join(dir, 'vault-aside.txt'))?.toString('utf8').trim();
    if (aside && fs.existsSync(aside)) out.push(aside);
  }
  return out;
}

function sizeOf(p: string): number {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((sum, n) => sum + sizeOf(path.join(p, n)), 0);
}

export function undoCopyStatus(ctx: Context): UndoCopy {
  const copies = undoCopies(ctx);
  return { exists: copies.length > 0, count: copies.length, byte_size: copies.reduce((s, p) => s + sizeOf(p), 0) };
}

/** Remove every undo copy (databases, set-aside vault folders and report files). Irreversible. */
export function deleteUndoCopies(ctx: Context, confirm: string): UndoCopiesDeleted {
  requireConfirm(confirm, UNDO_DELETE_CONFIRM);
  const status = undoCopyStatus(ctx);
  const copies = undoCopies(ctx);
  for (const p of copies.reverse()) fs.rmSync(p, { recursive: true, force: true });
  fs.rmSync(undoRoot(ctx), { recursive: true, force: true });
  return { deleted: status.count, byte_size: status.byte_size };
}
