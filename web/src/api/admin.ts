/**
 * The Administration page's calls and the shapes it reads (spec 1, "Backup,
 * restore, service, admin, runtime" and the cloud routes): backups, the staged
 * restore and its undo copy, the erase scopes, the daemon and its service
 * unit, the cloud copy. Confirm-gated calls send what the person typed; the
 * service decides whether it is the word.
 */
import { api } from './client.js';

export interface BackupView {
  path: string;
  created_at_utc: string;
  byte_size: number;
  manifest_sha256: string;
  file_count: number;
  include_reports: boolean;
  schema_version: number;
  /** Whether the bundle is still where it was written. */
  exists: boolean;
}

export interface StagedRestore {
  bundle_path: string;
  bundle_created_at_utc: string;
  staged_at_utc: string;
  vault_target: string | null;
  fk_violations: number;
  applies: string;
}

export interface LastRestore {
  bundle_path: string;
  bundle_created_at_utc: string;
  applied_at_utc: string;
  vault_path: string | null;
  not_restored: string[];
  show_card: boolean;
  acknowledged_at_utc: string | null;
}

export interface BackupState {
  last_backup: BackupView | null;
  last_cloud_backup: BackupView | null;
  staged: StagedRestore | null;
  last_restore: LastRestore | null;
  undo_copy: { exists: boolean; count: number; byte_size: number };
  confirm_words: { restore: string; undo_copy_delete: string };
}

export interface VerifyAnswer {
  path: string;
  byte_size: number;
  known_to_this_installation: boolean;
  created_at_utc: string;
  schema_version: number;
  files_checked: number;
  restore_would: string[];
  restore_would_not: string[];
}

export interface EraseScope {
  scope: string;
  confirm: string;
  erases: string;
  keeps: string;
}

export interface EraseResult {
  scope: string;
  erased: { rows: Record<string, number>; credentials: string[]; report_files: number };
  keeps: string;
}

export interface DaemonStatus {
  running: boolean;
  lock_present: boolean;
  stale_lock: boolean;
  pid: number | null;
  port: number | null;
  version: string | null;
  started_at: string | null;
  error: string | null;
  is_self: boolean;
  scheduler: { state: string } | null;
}

export interface ServiceUnit {
  platform: string;
  kind: string;
  supported: boolean;
  installed: boolean;
  path: string | null;
  note?: string;
  commands_run?: string[];
}

export interface CloudStatus {
  linked: boolean;
  provider: string;
  url: string | null;
  username: string | null;
  remote_folder: string;
  password: string;
  last_upload: (BackupView & { remote_path: string | null }) | null;
}

export interface CloudLink {
  url: string;
  username: string;
  password: string;
  remote_folder: string;
}

export const admin = {
  backupState: (signal?: AbortSignal) => api.get<BackupState>('/api/backup/last', { signal }),
  backup: (includeReports: boolean) => api.post<BackupView>('/api/backup', { include_reports: includeReports }),
  verify: (path: string) => api.post<VerifyAnswer>('/api/backup/verify', { path }),
  stageRestore: (body: { path: string; vault_parent: string; confirm: string; accept_fk_violations: boolean }) => api.post<{ applies: string; verify: VerifyAnswer }>('/api/restore', body),
  cancelRestore: () => api.post('/api/restore/cancel'),
  acknowledgeRestore: () => api.post('/api/restore/acknowledge'),
  deleteUndoCopies: (confirm: string) => api.post<{ deleted: number; byte_size: number }>('/api/restore/undo-copy/delete', { confirm }),
  eraseScopes: (signal?: AbortSignal) => api.get<{ scopes: EraseScope[] }>('/api/admin/erase-scopes', { signal }),
  erase: (scope: string, confirm: string) => api.post<EraseResult>(`/api/admin/${encodeURIComponent(scope)}`, { confirm }),
  daemonStatus: (signal?: AbortSignal) => api.get<DaemonStatus>('/api/service/daemon-status', { signal }),
  serviceUnit: (signal?: AbortSignal) => api.get<ServiceUnit>('/api/service/status', { signal }),
  installUnit: (register: boolean) => api.post<ServiceUnit>('/api/service/install', { register }),
  uninstallUnit: (deregister: boolean) => api.post<ServiceUnit>('/api/service/uninstall', { deregister }),
  cloudStatus: (signal?: AbortSignal) => api.get<CloudStatus>('/api/cloud/status', { signal }),
  linkCloud: (link: CloudLink) => api.post<CloudStatus>('/api/cloud/link', { ...link, remote_folder: link.remote_folder || null }),
  unlinkCloud: () => api.post<CloudStatus>('/api/cloud/unlink'),
};
