/**
 * Local backup: one bundle holding a consistent snapshot of the database
 * (SQLite's online backup API, not a file copy; see snapshot-worker.ts), the
 * vault bytes the snapshot references, and optionally the report files. Verify recomputes every hash
 * and says what a restore would and would not do.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { conflict, SvcError } from '../errors.js';
import { reportsDir } from '../executions/report.js';
import { ensureOwnedDir, ensureOwnedFile } from '../util/owned-files.js';
import { svcVersion } from '../version.js';
import { bundleInvalid, readBundle, MANIFEST_NAME, type BundleSource, type Manifest } from './bundle.js';
import { manifestNamesProblem } from './bundle-names.js';
import { writeBundle } from './bundle-writer.js';
import { insertBackup, lastBackup, type BackupRecord } from './repo.js';
import { startSnapshot } from './snapshot.js';
import type { BundleSecretsFacts } from './restore/facts.js';
import { ownerStands, ownStartTag } from '../claims/owner.js';
import type { BackupCreated, BackupView, VerifyAnswer } from '../wire/admin.js';

export const backupsDir = (ctx: Context) => path.join(ctx.paths.dataDir, 'backups');
export const MARKER_NAME = 'vault.json';

export interface BackupOptions {
  includeReports: boolean;
  /** Where to write the bundle; default <data dir>/backups/svc-backup-<time>.tar. */
  output?: string;
  /** Only the reports of these executions (cloud uploads); all when absent. */
  executionIds?: number[] | null;
  kind?: 'local' | 'cloud';
  /** Record the bundle in the backup history (a cloud upload records it once uploaded). */
  record?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Aborting stops the writing and removes the partial bundle (the command's Ctrl-C). */
  signal?: AbortSignal;
}

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/**
 * The default bundle name, svc-backup-<time>.tar, or -2, -3… when a bundle (or one being written) of the
 * same second is there: a second backup within a second is a new bundle, not a refusal to choose a name
 * the request has no field for.
 */
function freeDefaultName(dir: string, time: string, from = 1): string {
  for (let n = from; ; n++) {
    const candidate = path.join(dir, `svc-backup-${time}${n === 1 ? '' : `-${n}`}.tar`);
    if (!fs.existsSync(candidate) && !fs.existsSync(`${candidate}.partial`)) return candidate;
  }
}

/** Write a backup bundle. @example await createBackup(ctx, { includeReports: true }) */
export async function createBackup(ctx: Context, options: BackupOptions): Promise<BackupCreated> {
  const busy = ctx.service('admin.backup-busy', () => ({ running: false }));
  if (busy.running) throw conflict('backup_running', 'A backup is already being written; wait for it to finish.');
  busy.running = true;
  const dir = backupsDir(ctx);
  ensureOwnedDir(dir);
  removeOrphanedSnapshots(dir);
  // The pid and start time in the name tell a later backup whether the process writing it is gone.
  const start = ownStartTag();
  const snapshot = path.join(dir, `.snapshot-${process.pid}${start && `-${start}`}-${crypto.randomBytes(6).toString('hex')}.db`);
  let snapshotting: ReturnType<typeof startSnapshot> | null = null;
  try {
    const createdAt = ctx.nowIso();
    let target = options.output ? path.resolve(options.output) : freeDefaultName(dir, stamp(createdAt));
    // Only a named output (svc backup -o) can already exist: refused as every command's existing -o file is.
    const targetExists = () => new SvcError(400, 'output_exists', 'A file already exists where the bundle would go; choose another name (a bundle never replaces a file).');
    if (fs.existsSync(target)) throw targetExists();
    // The writer never overwrites a partial bundle: another backup may be writing it (one killed leaves it).
    const partialExists = () =>
      conflict('backup_exists', `${path.basename(target)}.partial exists: another backup is writing it or one was interrupted; try again in a second, or remove that file.`);
    if (fs.existsSync(`${target}.partial`)) throw partialExists();
    if (!fs.existsSync(path.dirname(target))) throw new SvcError(400, 'output_folder_missing', 'The folder for the bundle does not exist.');
    // One read transaction on a thread of its own: the facts first, then the online backup of that
    // same snapshot, which goes into the bundle last while the vault is already being copied.
    ensureOwnedFile(snapshot); // the whole database: SQLite's backup would create it 0644
    snapshotting = startSnapshot(ctx.paths.database, snapshot);
    const facts = await snapshotting.facts;
    const schemaVersion = ctx.schemaVersion;
    const sources: BundleSource[] = [];
    if (facts.vault) {
      const root = facts.vault.root_path;
      sources.push({ path: `vault/${MARKER_NAME}`, kind: 'vault', from: path.join(root, MARKER_NAME) });
      for (const rel of facts.vaultFiles) sources.push({ path: `vault/${rel}`, kind: 'vault', from: path.join(root, ...rel.split('/')) });
    }
    let reportsLeftOut = 0;
    if (options.includeReports) {
      const wanted = options.executionIds ? new Set(options.executionIds) : null;
      // The folders a restore puts reports back in: the default one and storage.reports_dir. Reports
      // written before reports_dir changed stay in the default folder and belong in the bundle too.
      const folders = new Set([path.resolve(ctx.paths.reportsDir), reportsDir(ctx)]);
      const names = new Set<string>();
      for (const r of facts.reports) {
        if (wanted && !wanted.has(r.execution_id)) continue;
        if (!fs.existsSync(r.path)) continue;
        const name = path.basename(r.path);
        if (!folders.has(path.dirname(path.resolve(r.path))) || names.has(name)) {
          reportsLeftOut++;
          continue;
        }
        names.add(name);
        sources.push({ path: `reports/${name}`, kind: 'report', from: r.path });
      }
    }
    for (const s of sources) {
      if (!fs.lstatSync(s.from, { throwIfNoEntry: false })?.isFile()) throw new SvcError(409, 'backup_source_missing', `${s.path} is missing on disk; check the Library (\`svc library check\`) and try again.`, { path: s.path });
    }
    sources.push({ path: 'database/svc.db', kind: 'database', from: snapshot, ready: snapshotting.done });
    const vault = facts.vault ? { vault_id: facts.vault.vault_id, label: facts.vault.label, folder_name: path.basename(facts.vault.root_path) } : null;
    const head = { format: 'svc-backup', version: 1, created_at_utc: createdAt, svc_version: svcVersion(), schema_version: schemaVersion, include_reports: options.includeReports, vault, tables: facts.tables } as const;
    let written: Awaited<ReturnType<typeof writeBundle>> | undefined;
    for (let n = 2; !written; n++) {
      written = await writeBundle(target, sources, head, options.onProgress, options.signal).catch((err: NodeJS.ErrnoException & { targetExists?: boolean }) => {
        if (err.code !== 'EEXIST') throw err;
        // Another process took the default name since it was chosen (its partial, or its finished
        // bundle): this bundle takes the next free one, as a second backup of the same second does.
        if (!options.output && n <= 100) return undefined;
        throw err.targetExists ? targetExists() : partialExists();
      });
      if (!written) target = freeDefaultName(dir, stamp(createdAt), n);
    }
    const counts = { database: 0, vault: 0, report: 0 };
    for (const f of written.manifest.files) counts[f.kind]++;
    const record: Omit<BackupRecord, 'id'> = {
      kind: options.kind ?? 'local',
      path: target,
      created_at_utc: createdAt,
      byte_size: written.size,
      manifest_sha256: written.manifest_sha256,
      include_reports: options.includeReports ? 1 : 0,
      file_count: written.manifest.files.length,
      schema_version: schemaVersion,
      remote_path: null,
    };
    if (options.record !== false) insertBackup(ctx.db, record);
    return { path: target, created_at_utc: createdAt, byte_size: written.size, manifest_sha256: written.manifest_sha256, file_count: record.file_count, include_reports: options.includeReports, schema_version: schemaVersion, counts, reports_left_out: reportsLeftOut, vault };
  } finally {
    await snapshotting?.stop();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(snapshot + suffix, { force: true });
    busy.running = false;
  }
}

/** `.snapshot-<pid>-<start>-<hex>.db` and its SQLite companions; an older svc wrote no start time. */
const SNAPSHOT_NAME = /^\.snapshot-(\d+)(?:-(\d+))?-[0-9a-f]+\.db(-wal|-shm|-journal)?$/;

/**
 * Database snapshots left by a backup whose process was killed (a copy of the whole database,
 * hidden in the backups folder) go when the next backup starts. Only files named by a process
 * that no longer runs (claims/owner.ts: a pid now run by another process does not; a name
 * without a start time is judged by its pid alone); never through a link.
 */
function removeOrphanedSnapshots(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const [, pid, start] = SNAPSHOT_NAME.exec(name) ?? [];
    if (!pid || Number(pid) === process.pid) continue;
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const owner = start === undefined ? { pid: Number(pid) } : { pid: Number(pid), pid_start: Number(start) };
    if (!ownerStands(owner, start === undefined ? null : stat.mtimeMs)) fs.rmSync(file, { force: true });
  }
}

export function backupView(r: BackupRecord | undefined): BackupView | null {
  if (!r) return null;
  return { path: r.path, created_at_utc: r.created_at_utc, byte_size: r.byte_size, manifest_sha256: r.manifest_sha256, file_count: r.file_count, include_reports: r.include_reports === 1, schema_version: r.schema_version, exists: fs.existsSync(r.path) };
}

/** Recompute every hash of a bundle; answers what a restore would and would not do. Refuses a damaged bundle, or one whose names a restore would refuse (422 bundle_invalid). */
export async function verifyBackup(ctx: Context, bundlePath: string): Promise<VerifyAnswer> {
  const file = resolveBundlePath(ctx, bundlePath);
  const read = await readBundle(file);
  // What a restore would refuse, verify refuses too, in the same words.
  const names = manifestNamesProblem(read.manifest);
  if (names) throw bundleInvalid(names);
  return describeBundle(ctx, file, read.manifest, read.size, read.manifest_sha256);
}

export function resolveBundlePath(ctx: Context, given: string): string {
  if (given) return path.resolve(given);
  const last = lastBackup(ctx.db, 'local');
  if (!last) throw new SvcError(404, 'no_backup', 'No backup has been written yet; name a bundle file, or write one with `svc backup`.');
  return last.path;
}

/**
 * The line about secrets. A bundle holds none and a restore never touches the stored credentials
 * (they are in the state directory), so it only needs saying when some are missing: with
 * `credentialsUsed` (known once the bundle's database is read, at staging) exactly those its
 * settings use that are not stored here; without (verify), whether any are stored here at all.
 */
function secretsLine(ctx: Context, credentialsUsed: string[] | undefined): string | null {
  const stored = new Set(ctx.credentials.statuses().filter((c) => c.status === 'present').map((c) => c.name));
  if (credentialsUsed) {
    const missing = credentialsUsed.filter((n) => !stored.has(n));
    if (!missing.length) return null;
    return `restore API keys or passwords (a bundle holds none): its settings use ${missing.join(', ')}, not stored here; store ${missing.length === 1 ? 'it' : 'them'} with \`svc credentials set NAME\``;
  }
  if (stored.size) return `restore API keys or passwords: a bundle holds none; the ${stored.size} stored here stay as they are`;
  return 'restore API keys or passwords: a bundle holds none, and none are stored here; store those you use with `svc credentials set NAME`';
}

/** `facts` come from the bundle's database once it is read (staging); verify, which reads no database, goes without. */
export function describeBundle(ctx: Context, file: string, manifest: Manifest, size: number, manifestSha256: string, facts?: BundleSecretsFacts): VerifyAnswer {
  const counts = { database: 0, vault: 0, report: 0 };
  for (const f of manifest.files) counts[f.kind]++;
  const known = ctx.db.prepare('SELECT 1 FROM admin_backups WHERE manifest_sha256 = ? AND byte_size = ?').get(manifestSha256, size) !== undefined;
  const tableTotal = Object.values(manifest.tables ?? {}).reduce((a, b) => a + b, 0);
  const would = [
    `replace the database with the one in the bundle (schema ${manifest.schema_version}, ${Object.keys(manifest.tables ?? {}).length} tables, ${tableTotal} rows) at the next start`,
    'set the current database aside as an undo copy (delete it later with `svc restore delete-undo`, or POST /api/restore/undo-copy/delete)',
  ];
  const secrets = secretsLine(ctx, facts?.credentialsUsed);
  const wouldNot = [
    ...(secrets ? [secrets] : []),
    ...(facts && !facts.webhookDestinations
      ? []
      : ['restore the signing secrets of webhook destinations: each gets a new one at restore; give it to the receiver again (`svc routine target secret`)']),
    'restore the token, port or daemon lock files, or the service unit',
    `restore anything written after ${manifest.created_at_utc}`,
  ];
  if (manifest.vault) would.push(`place the Library vault ${manifest.vault.folder_name} (${counts.vault - 1 === 1 ? '1 file' : `${counts.vault - 1} files`}) under the vault parent you name; a folder already there is set aside`);
  else wouldNot.push('restore a Library vault: the bundle has none');
  if (manifest.include_reports) would.push(`put back ${counts.report === 1 ? '1 report file' : `${counts.report} report files`} into this installation's reports folders; a file already there is set aside with the undo copy`);
  else wouldNot.push('restore report files: the bundle was written without them');
  if (manifest.schema_version > ctx.schemaVersion) wouldNot.push(`open at all: its schema ${manifest.schema_version} is newer than this svc knows (${ctx.schemaVersion}); upgrade svc first`);
  return {
    ok: true,
    path: file,
    byte_size: size,
    manifest_sha256: manifestSha256,
    known_to_this_installation: known,
    created_at_utc: manifest.created_at_utc,
    schema_version: manifest.schema_version,
    files_checked: manifest.files.length,
    counts,
    tables: manifest.tables ?? {},
    vault: manifest.vault,
    restore_would: would,
    restore_would_not: wouldNot,
  };
}

export { MANIFEST_NAME };
