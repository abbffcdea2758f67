/** Human views for `svc backup`, `svc restore` and `svc erase`. */
import type { BackupCreated, EraseResult, RestoreStaged, VerifyAnswer } from '../../src/wire/admin.js';
import type { restoreStatus } from '../../src/admin/restore/status.js';
import { drawsOnTerminal, type Io } from '../lib/io.js';
import { count } from '../lib/words.js';

export const bytes = (n: number) => (n >= 1 << 30 ? `${(n / (1 << 30)).toFixed(2)} GiB` : n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

export function backupText(b: BackupCreated): string {
  return [
    `Backup written: ${b.path}`,
    `  ${count(b.file_count, 'file')} (database ${b.counts.database}, vault ${b.counts.vault}, reports ${b.counts.report}), ${bytes(b.byte_size)}`,
    `  manifest sha256 ${b.manifest_sha256}`,
    ...(b.reports_left_out
      ? [`  ${count(b.reports_left_out, 'report file')} ${b.reports_left_out === 1 ? 'was' : 'were'} left out: in a folder that is neither <data dir>/reports nor storage.reports_dir (move ${b.reports_left_out === 1 ? 'it' : 'them'} into one to back ${b.reports_left_out === 1 ? 'it' : 'them'} up)`]
      : []),
  ].join('\n');
}

export function verifyText(v: VerifyAnswer): string {
  return [
    `Bundle OK: ${v.path}`,
    `  written ${v.created_at_utc}, schema ${v.schema_version}, ${count(v.files_checked, 'file')} checked, ${bytes(v.byte_size)}${v.known_to_this_installation ? ', written by this installation' : ''}`,
    'A restore would:',
    ...v.restore_would.map((s) => `  + ${s}`),
    'A restore would not:',
    ...v.restore_would_not.map((s) => `  - ${s}`),
  ].join('\n');
}

/** `svc restore`: the verification (unless it was shown above the question), then what happens next. */
export function stagedText(s: RestoreStaged, withVerify: boolean): string {
  return [
    ...(withVerify ? [verifyText(s.verify)] : []),
    `Staged the restore of ${s.plan.bundle_path} (written ${s.plan.bundle_created_at_utc}).`,
    ...(s.plan.vault_target ? [`  The Library vault goes to ${s.plan.vault_target}.`] : []),
    ...(s.plan.fk_violations ? [`  Its database has ${count(s.plan.fk_violations, 'foreign-key violation')} (accepted with --accept-fk-violations).`] : []),
    '  Nothing has moved yet: it happens at the next start of `svc serve` or the daemon (restart a running one).',
    '  Until then `svc restore cancel` forgets it; afterwards `svc restore status` shows what was not restored.',
  ].join('\n');
}

export function restoreStatusText(s: ReturnType<typeof restoreStatus>): string {
  const lines: string[] = [];
  lines.push(s.staged ? `Staged: ${s.staged.bundle_path} (written ${s.staged.bundle_created_at_utc}); applies at the next start of \`svc serve\` or the daemon` : 'No restore staged.');
  if (s.last_restore) {
    lines.push(`Last restore: ${s.last_restore.applied_at_utc} from ${s.last_restore.bundle_path}`);
    if (s.last_restore.show_card) lines.push('  The restore did not:', ...s.last_restore.not_restored.map((n) => `    - ${n}`), '  (dismiss this note with `svc restore acknowledge`)');
  }
  lines.push(s.undo_copy.exists ? `Undo copies: ${s.undo_copy.count} (${bytes(s.undo_copy.byte_size)}); remove with \`svc restore delete-undo\`` : 'No undo copies.');
  return lines.join('\n');
}

/** `word`: the scope as svc erase names it (corpus), not its HTTP name (erase-corpus). */
export function eraseText(word: string, r: EraseResult): string {
  const rows = Object.values(r.erased.rows).reduce((a, b) => a + b, 0);
  return [
    `${word}: erased ${rows} rows${r.erased.categories.length ? ` (${r.erased.categories.join(', ')})` : ''}, ${r.erased.credentials.length} stored keys, ${r.erased.report_files} report files.`,
    `Kept: ${r.keeps}.`,
  ].join('\n');
}

/** A progress line on a terminal (stderr), redrawn in place; nothing when piped or with --json. */
export function progressLine(io: Io, label: string): ((done: number, total: number) => void) | undefined {
  if (!drawsOnTerminal(io)) return undefined;
  return (done, total) => io.err(`\x1b[1A\x1b[2K${label} ${done}/${total} files`);
}
