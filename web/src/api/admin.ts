/**
 * The Administration page's calls (spec 1, "Backup, restore, service, admin,
 * runtime" and the cloud routes): backups, the staged restore and its undo
 * copy, the erase scopes, the daemon and its service unit, the cloud copy.
 * Confirm-gated calls send what the person typed; the service decides whether
 * it is the word. The answers' shapes are the service's, from
 * src/wire/admin.ts and src/wire/daemon.ts.
 */
import type {
  BackupCreated,
  BackupState,
  CloudStatus,
  CloudUnlinked,
  EraseResult,
  EraseScope,
  EraseScopeList,
  RestoreAcknowledged,
  RestoreCancelled,
  RestoreStaged,
  UndoCopiesDeleted,
  VerifyAnswer,
} from '../../../src/wire/admin.js';
import type { DaemonStatus, ServiceInstalled, ServiceUninstalled, ServiceUnit } from '../../../src/wire/daemon.js';
import { api } from './client.js';

export type { BackupCreated, BackupState, CloudStatus, EraseResult, EraseScopeView, VerifyAnswer } from '../../../src/wire/admin.js';
export type { ServiceInstalled, ServiceUninstalled } from '../../../src/wire/daemon.js';

/** What the link form sends; an empty remote folder asks for the settings' one. */
export interface CloudLink {
  url: string;
  username: string;
  password: string;
  remote_folder: string;
}

export const admin = {
  backupState: (signal?: AbortSignal) => api.get<BackupState>('/api/backup/last', { signal }),
  backup: (includeReports: boolean) => api.post<BackupCreated>('/api/backup', { include_reports: includeReports }),
  verify: (path: string) => api.post<VerifyAnswer>('/api/backup/verify', { path }),
  stageRestore: (body: { path: string; vault_parent: string; confirm: string; accept_fk_violations: boolean }) => api.post<RestoreStaged>('/api/restore', body),
  cancelRestore: () => api.post<RestoreCancelled>('/api/restore/cancel'),
  acknowledgeRestore: () => api.post<RestoreAcknowledged>('/api/restore/acknowledge'),
  deleteUndoCopies: (confirm: string) => api.post<UndoCopiesDeleted>('/api/restore/undo-copy/delete', { confirm }),
  eraseScopes: (signal?: AbortSignal) => api.get<EraseScopeList>('/api/admin/erase-scopes', { signal }),
  erase: (scope: EraseScope, confirm: string) => api.post<EraseResult>(`/api/admin/${encodeURIComponent(scope)}`, { confirm }),
  daemonStatus: (signal?: AbortSignal) => api.get<DaemonStatus>('/api/service/daemon-status', { signal }),
  serviceUnit: (signal?: AbortSignal) => api.get<ServiceUnit>('/api/service/status', { signal }),
  installUnit: (register: boolean) => api.post<ServiceInstalled>('/api/service/install', { register }),
  uninstallUnit: (deregister: boolean) => api.post<ServiceUninstalled>('/api/service/uninstall', { deregister }),
  cloudStatus: (signal?: AbortSignal) => api.get<CloudStatus>('/api/cloud/status', { signal }),
  linkCloud: (link: CloudLink) => api.post<CloudStatus>('/api/cloud/link', { ...link, remote_folder: link.remote_folder || null }),
  unlinkCloud: () => api.post<CloudUnlinked>('/api/cloud/unlink'),
};
