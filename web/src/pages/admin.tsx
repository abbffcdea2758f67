/**
 * Administration: backups and their verify, restore (staged, applied at the
 * next start through a restart from here), the daemon and its service unit,
 * the cloud copy, and the danger zone's erase scopes — each as the service
 * says, with its confirmations typed.
 */
import { useEffect } from 'preact/hooks';
import { admin } from '../api/admin.js';
import { BackupSection } from '../admin/backup.js';
import { CloudSection } from '../admin/cloud.js';
import { DaemonSection } from '../admin/daemon.js';
import { EraseSection } from '../admin/erase.js';
import { adminChanged, backupState } from '../admin/restore-state.js';
import { RestoreSection } from '../admin/restore.js';
import { ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

export default function Admin() {
  const state = useResource((signal) => admin.backupState(signal), [adminChanged.value]);
  // The frame's banner reads the same state: what this page read, it sees too.
  useEffect(() => {
    if (state.data) backupState.value = state.data;
  }, [state.data]);
  const current = backupState.value ?? state.data;
  return (
    <>
      <header class="page-header">
        <h1>Administration</h1>
        <p class="lede">Backups and restore, the background daemon, the cloud copy, and erasing.</p>
      </header>
      <ErrorNote error={state.error} title="svc could not say what its backups are." />
      <div class="admin-sections">
        <BackupSection state={current ?? undefined} />
        <RestoreSection state={current ?? undefined} />
        <DaemonSection />
        <CloudSection />
        <EraseSection />
      </div>
    </>
  );
}
