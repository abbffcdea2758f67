/**
 * The JSON of backup, restore and the danger zone as the routes send it
 * (spec 1, "Backup, restore, service, admin, runtime"): a bundle written,
 * recorded or verified, the staged restore and the last one applied, the undo
 * copies, and the erase scopes with what an erase did. `svc backup`,
 * `svc restore` and `svc erase` print the same objects with --json. Declared
 * once here, for the service and the window alike; imports nothing but wire
 * files.
 */
import type { CredentialStatus } from './credentials.js';

/** What a bundle's files are, counted by kind: the database (one), the vault's files (its marker among them) and report files. */
export interface BundleCounts {
  database: number;
  vault: number;
  report: number;
}

/** The Library vault a bundle holds, as its manifest names it; null when the installation had none. */
export type BundleVault = { vault_id: string; label: string; folder_name: string } | null;

/** A bundle this installation wrote, as its backup history records it. */
export interface BackupView {
  path: string;
  created_at_utc: string;
  byte_size: number;
  /** The hash of the bundle's manifest, which names every file's hash: two bundles with the same one hold the same bytes. */
  manifest_sha256: string;
  file_count: number;
  include_reports: boolean;
  schema_version: number;
  /** Whether the bundle is still where it was written (a person may have moved or deleted it). */
  exists: boolean;
}

/** POST /api/backup (201), and `svc backup --json`: the bundle just written. */
export interface BackupCreated extends Omit<BackupView, 'exists'> {
  counts: BundleCounts;
  /** Report files on disk that are in neither reports folder (an earlier storage.reports_dir): not in the bundle. */
  reports_left_out: number;
  vault: BundleVault;
}

/** POST /api/backup/verify: every hash recomputed; a damaged bundle is refused (422 bundle_invalid), so ok is always true. */
export interface VerifyAnswer {
  ok: true;
  path: string;
  byte_size: number;
  manifest_sha256: string;
  /** Whether this installation recorded writing exactly these bytes. */
  known_to_this_installation: boolean;
  created_at_utc: string;
  schema_version: number;
  files_checked: number;
  counts: BundleCounts;
  /** Rows per table of the bundle's database, as the manifest counts them. */
  tables: Record<string, number>;
  vault: BundleVault;
  /** What a restore of this bundle would do, in sentences. */
  restore_would: string[];
  /** What it would not (secrets, webhook signing secrets, the daemon's files, anything later), in sentences. */
  restore_would_not: string[];
}

/** The plan a staged restore recorded (staged.json): the next start of the server or daemon applies it. */
export interface StagedPlan {
  version: 1;
  bundle_path: string;
  manifest_sha256: string;
  bundle_created_at_utc: string;
  staged_at_utc: string;
  /** Names this restore's undo folder and any vault folder set aside: no earlier restore used it. */
  stamp: string;
  /** Where the bundle's vault goes; null when the bundle has none. */
  vault_target: string | null;
  vault_staging: string | null;
  /** Report files extracted to be put back. */
  reports: string[];
  /** Foreign-key violations in the bundle's database, accepted with accept_fk_violations. */
  fk_violations: number;
  not_restored: string[];
}

/** POST /api/restore (202): verified, extracted and staged; nothing of the installation has moved yet. */
export interface RestoreStaged {
  staged: true;
  applies: string;
  plan: StagedPlan;
  verify: VerifyAnswer;
}

/** The restore waiting for the next start, as GET /api/backup/last shows it. */
export interface StagedRestore {
  bundle_path: string;
  bundle_created_at_utc: string;
  staged_at_utc: string;
  vault_target: string | null;
  fk_violations: number;
  /** When it applies, in words. */
  applies: string;
}

/** The last restore applied, and whether the window still owes the person its card. */
export interface LastRestore {
  bundle_path: string;
  bundle_created_at_utc: string;
  applied_at_utc: string;
  /** Where the vault was placed; null when the bundle had none. */
  vault_path: string | null;
  /** What the restore did not bring back, in sentences. */
  not_restored: string[];
  /** True until POST /api/restore/acknowledge (acknowledged_at_utc is then set). */
  show_card: boolean;
  acknowledged_at_utc: string | null;
}

/** The databases (and report files) earlier restores set aside, kept until deleted on purpose. */
export interface UndoCopy {
  exists: boolean;
  count: number;
  byte_size: number;
}

/** `svc restore status --json`: the staged restore, the last one applied and the undo copies. */
export interface RestoreStatus {
  staged: StagedRestore | null;
  last_restore: LastRestore | null;
  undo_copy: UndoCopy;
}

/** GET /api/backup/last: the last local and cloud bundles, the restore status, and the words the confirm-gated routes accept. */
export interface BackupState extends RestoreStatus {
  last_backup: BackupView | null;
  last_cloud_backup: BackupView | null;
  /** The spec leaves the words to svc: a door asks the person for them. */
  confirm_words: { restore: string; undo_copy_delete: string };
}

/** POST /api/restore/cancel: the staged restore is forgotten and its extracted files removed. */
export interface RestoreCancelled {
  cancelled: true;
  bundle_path: string;
}

/** POST /api/restore/acknowledge: how many restores' cards were put away. */
export interface RestoreAcknowledged {
  acknowledged: number;
}

/** POST /api/restore/undo-copy/delete: the copies deleted and the bytes they held. */
export interface UndoCopiesDeleted {
  deleted: number;
  byte_size: number;
}

/** The danger zone's scopes; each one's confirm word is its own name. */
export type EraseScope =
  | 'erase-ai-keys'
  | 'erase-repo-keys'
  | 'erase-configs'
  | 'erase-executions'
  | 'erase-execution-data'
  | 'erase-corpus'
  | 'erase-app-data'
  | 'reset-settings'
  | 'factory-reset';

/** What kind of data a table holds (src/admin/tables.ts says what each means and lists every table): the erase scopes erase by category. */
export type TableCategory = 'schema' | 'admin' | 'app_state' | 'settings' | 'configs' | 'executions' | 'corpus' | 'library' | 'conversations';

/** A scope as a door shows it before anyone types its confirmation. */
export interface EraseScopeView {
  scope: EraseScope;
  /** The word the body's confirm must be. */
  confirm: string;
  /** What goes, and what stays, in svc's words. */
  erases: string;
  keeps: string;
}

/** GET /api/admin/erase-scopes (not in the spec's table). */
export interface EraseScopeList {
  scopes: EraseScopeView[];
}

/** POST /api/admin/{scope}: what was erased. Vault bytes never are. */
export interface EraseResult {
  scope: EraseScope;
  erased: {
    categories: TableCategory[];
    /** Rows deleted per table. */
    rows: Record<string, number>;
    /** The credential names that had a value (present or unreadable) and were erased. */
    credentials: string[];
    report_files: number;
  };
  keeps: string;
  erased_at_utc: string;
}

/** GET /api/cloud/status: the linked WebDAV account (never its password, only whether one is stored). */
export interface CloudStatus {
  linked: boolean;
  /** The cloud settings' provider: webdav, or none. */
  provider: string;
  url: string | null;
  username: string | null;
  remote_folder: string;
  password: CredentialStatus;
  /** The last bundle uploaded, with where it went in the account (null for one recorded before remote paths were). */
  last_upload: (BackupView & { remote_path: string | null }) | null;
}

/** POST /api/cloud/unlink: whether an account was linked, and the status after. */
export interface CloudUnlinked extends CloudStatus {
  unlinked: boolean;
}

/** POST /api/cloud/backup (201): the bundle written and uploaded under a name no remote file had. */
export interface CloudUploaded {
  uploaded: true;
  /** remote_folder/svc-backup-<time>.tar. */
  remote_path: string;
  url: string;
  byte_size: number;
  manifest_sha256: string;
  file_count: number;
  counts: BundleCounts;
}
