/**
 * What every page must know about a restore: whether one is staged (the
 * frame's banner says "applies at the next start" on every page while it is),
 * and the restart that applies it — the backend restarted by the shell (the
 * daemon by stop and start, a fallback on its port), then this tab takes the
 * new backend's token and reads the state again. The Administration page
 * reads and changes the same state.
 */
import { signal } from '@preact/signals';
import { admin, type BackupState } from '../api/admin.js';
import { renewSession, shellAction } from '../session.js';

/** The last answer of GET /api/backup/last; null until read. */
export const backupState = signal<BackupState | null>(null);
/** Bumped after anything the Administration page did, so its reads are taken again. */
export const adminChanged = signal(0);
export const restarting = signal(false);

export async function refreshBackupState(): Promise<BackupState> {
  const state = await admin.backupState();
  backupState.value = state;
  return state;
}

export function noteAdminChange(): void {
  adminChanged.value++;
  void refreshBackupState().catch(() => undefined);
}

/** Restart the backend through the shell and re-attach this tab to it (a staged restore is applied at its start). */
export async function restartBackend(): Promise<void> {
  restarting.value = true;
  try {
    await shellAction('backend/restart');
    await renewSession();
    await refreshBackupState();
    adminChanged.value++;
  } finally {
    restarting.value = false;
  }
}
