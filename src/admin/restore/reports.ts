/**
 * Putting a restore's report files back, at the next start, after the
 * restored database is in place. A bundle is its author's, settings included:
 * one whose storage.reports_dir named a folder of the user's own (holding its
 * own execution-1.txt) had the restore replace that file. So:
 *
 * - reports go only into svc's default reports folder or the folder the
 *   installation being replaced had named (read from its set-aside database),
 *   never into a folder only the bundle names; the restored settings then keep
 *   that installation's folder, and the restore's outcome says so;
 * - a restore never replaces a file: a report already where a restored one
 *   goes is moved into the restore's undo copy first (`reports/`, with
 *   reports-aside.json naming where each came from), so undoing the restore
 *   brings it back.
 */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Context } from '../../context.js';
import { reportsDir } from '../../executions/report.js';
import { setReportPath } from '../../executions/repo.js';
import { createSettingsStore } from '../../settings/store.js';
import { moveFileNoReplace } from '../../util/move-file.js';
import { ensureOwnedDir, readOwnedFile, writeOwnerOnlyFile } from '../../util/owned-files.js';
import { REPORT_NAME } from '../bundle-names.js';

/** In a restore's undo folder: the report files it set aside, and where each came from (name → path). */
export const REPORTS_ASIDE_DIR = 'reports';
export const REPORTS_ASIDE_NOTE = 'reports-aside.json';

/**
 * Where a restored report goes: back to the path its execution recorded when that is inside one of
 * `reportFolders` (the first is the default), else the default folder. A recorded path elsewhere
 * (~/.bashrc, say) or a name svc never writes would let a crafted bundle place a file anywhere, so
 * such a name is not restored at all (null).
 */
export function reportDestination(name: string, recorded: string | null, reportFolders: string[]): string | null {
  if (!REPORT_NAME.test(name)) return null;
  const folders = reportFolders.map((f) => path.resolve(f));
  if (recorded && path.basename(recorded) === name && folders.includes(path.dirname(path.resolve(recorded)))) return path.resolve(recorded);
  return path.join(folders[0]!, name);
}

/** The reports folder the installation being replaced had named (its set-aside database's storage.reports_dir), or null. */
function formerReportsDir(ctx: Context, undoDb: string): string | null {
  if (!fs.existsSync(undoDb)) return null; // a first restore into an empty installation
  let before: Sqlite.Database | null = null;
  try {
    before = new Sqlite(undoDb, { readonly: true, fileMustExist: true });
    const db = before;
    const configured = String(createSettingsStore(() => db, ctx.nowIso).read('storage').reports_dir ?? '');
    return configured ? path.resolve(configured) : null;
  } catch (err) {
    ctx.log.warn(`put restored reports only in the default reports folder; the set-aside database's settings could not be read (${(err as Error).message})`);
    return null;
  } finally {
    before?.close();
  }
}

export interface ReportsPutBack {
  /** Reports already where restored ones went, now in the undo copy. */
  setAside: number;
  /** The folder the restored settings name that was refused (only the bundle named it), or null. */
  refusedFolder: string | null;
  /** The reports folder the restored settings keep instead: the replaced installation's ('' for the default). */
  keptReportsDir: string;
}

/** Move `to` into the undo copy, noting where it came from first (a start killed between the two finds the note). */
function moveIntoUndo(undo: string, to: string): boolean {
  const note = path.join(undo, REPORTS_ASIDE_NOTE);
  const noted = JSON.parse(readOwnedFile(note)?.toString('utf8') ?? '{}') as Record<string, string>;
  const name = path.basename(to);
  if (noted[name] !== undefined && noted[name] !== to) return false; // its place holds a report of another folder
  if (noted[name] === undefined) writeOwnerOnlyFile(note, JSON.stringify({ ...noted, [name]: to }, null, 2) + '\n');
  ensureOwnedDir(path.join(undo, REPORTS_ASIDE_DIR));
  return moveFileNoReplace(to, path.join(undo, REPORTS_ASIDE_DIR, name));
}

/**
 * Move the staged reports `names` (in `stagedReports`) into place; `undo` is the restore's undo
 * folder, holding the set-aside database. Each step checks what is already done, so a start killed
 * halfway finishes on the next start.
 */
export function putBackReports(ctx: Context, names: string[], stagedReports: string, undo: string): ReportsPutBack {
  const former = formerReportsDir(ctx, path.join(undo, 'svc.db'));
  const folders = [path.resolve(ctx.paths.reportsDir), ...(former ? [former] : [])];
  const named = reportsDir(ctx); // the restored settings'
  let asideCount = 0;
  for (const name of names) {
    const from = path.join(stagedReports, name);
    if (!fs.existsSync(from)) continue; // already placed
    const id = Number(/\d+/.exec(name)?.[0]);
    const recorded = (ctx.db.prepare('SELECT report_path FROM executions WHERE id = ?').pluck().get(id) as string | null | undefined) ?? null;
    const to = reportDestination(name, recorded, folders);
    if (!to) continue;
    ensureOwnedDir(path.dirname(to));
    const there = fs.lstatSync(to, { throwIfNoEntry: false });
    if (there) {
      if (there.isDirectory() || !moveIntoUndo(undo, to)) {
        ctx.log.warn(`did not restore the report ${name}: something is already where it goes that the undo copy cannot take`);
        continue;
      }
      asideCount++;
    }
    // Recorded first: a start killed before the move then puts the report in the same place.
    if (recorded !== to) setReportPath(ctx.db, id, to);
    if (!moveFileNoReplace(from, to)) ctx.log.warn(`did not restore the report ${name}: a file appeared where it goes`);
  }
  return { setAside: asideCount, refusedFolder: folders.includes(named) ? null : named, keptReportsDir: former ?? '' };
}

/** The line of the restore's outcome (what it did not do) about a refused reports folder. */
export function refusedFolderLine(ctx: Context, put: ReportsPutBack): string | null {
  if (!put.refusedFolder) return null;
  const defaultFolder = path.resolve(ctx.paths.reportsDir);
  return `use the reports folder ${put.refusedFolder} that the bundle's settings name: this installation never named it, so the reports the bundle kept there are in ${defaultFolder} and new ones go to ${put.keptReportsDir || defaultFolder}; to use that folder, set storage.reports_dir to it again`;
}

/** The restored settings keep the replaced installation's reports folder when theirs was refused. */
export function keepFormerReportsDir(ctx: Context, put: ReportsPutBack): void {
  if (put.refusedFolder) ctx.settings.write('storage', { reports_dir: put.keptReportsDir });
}
