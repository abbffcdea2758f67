/**
 * A staged restore, said on every page until it is applied: the bundle it
 * restores, that it applies at the next start (the service's words), and a
 * button that restarts svc through the window's shell and re-attaches.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { backupState, refreshBackupState, restartBackend, restarting } from '../admin/restore-state.js';
import { minute } from './format.js';
import { ErrorNote } from './notes.js';

export function RestoreBanner() {
  const failure = useSignal<unknown>(null);
  useEffect(() => {
    void refreshBackupState().catch(() => undefined); // the Administration page says why it cannot read it
  }, []);
  const staged = backupState.value?.staged;
  if (!staged) return null;
  const restart = () => {
    failure.value = null;
    restartBackend().catch((err) => (failure.value = err));
  };
  return (
    <aside class="banner banner-restore" aria-label="Staged restore">
      <p>
        <strong>A restore is staged and applies {staged.applies}:</strong> the backup of {minute(staged.bundle_created_at_utc)} (<code>{staged.bundle_path}</code>) replaces
        this installation's data when svc starts again. <a href="/admin#restore">Cancel or review it</a>.
      </p>
      <button type="button" onClick={restart} disabled={restarting.value}>
        {restarting.value ? 'Restarting svc…' : 'Restart svc now'}
      </button>
      <ErrorNote error={failure.value} title="svc did not restart." />
    </aside>
  );
}
