/**
 * Restore: a bundle path (typed, or the last backup's — the route reads a
 * path on this machine, so nothing is uploaded) verified and staged with the
 * service's confirmation word; while staged, it applies at the next start and
 * the page offers the restart (through the window's shell) or the cancel. Then
 * the last restore's outcome (what was not restored) and its undo copy.
 */
import { useState } from 'preact/hooks';
import { admin, type BackupState } from '../api/admin.js';
import { bytes, minute } from '../ui/format.js';
import { ErrorNote, FieldError } from '../ui/notes.js';
import { placeRefusal } from './place.js';
import { noteAdminChange, restartBackend, restarting } from './restore-state.js';
import { TypedConfirm } from './typed-confirm.js';

const FIELDS = {
  path: { key: 'path', reasons: ['bundle_not_found', 'bundle_invalid', 'no_backup', 'bundle_too_new'] },
  vault: { key: 'vault_parent', reasons: ['vault_parent_invalid', 'vault_parent_missing', 'vault_parent_required'] },
  fk: { key: 'accept_fk_violations', reasons: ['fk_violations'] },
  confirm: { key: 'confirm', reasons: ['confirmation_required'] },
};

function StageForm({ state }: { state: BackupState }) {
  const [path, setPath] = useState('');
  const [vault, setVault] = useState('');
  const [fk, setFk] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const word = state.confirm_words.restore;
  const last = state.last_backup;
  async function stage(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await admin.stageRestore({ path: path.trim(), vault_parent: vault.trim(), confirm, accept_fk_violations: fk });
      setConfirm('');
      noteAdminChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const { byField, placed } = placeRefusal(error, FIELDS);
  const described = (id: string, messages: string[] | undefined, hint?: string) => [hint, messages?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <form class="restore-form" onSubmit={stage} noValidate aria-labelledby="restore-form-heading">
      <h3 id="restore-form-heading">Restore from a backup</h3>
      <div class="field">
        <label for="restore-path">Bundle file</label>
        <div class="field-line">
          <input id="restore-path" class="path-input" value={path} placeholder="/path/to/svc-backup-….tar" onInput={(e) => setPath((e.target as HTMLInputElement).value)} aria-invalid={Boolean(byField.path)} aria-describedby={described('restore-path', byField.path, 'restore-path-hint')} />
          {last && (
            <button type="button" class="quiet" onClick={() => setPath(last.path)}>
              Use the last backup
            </button>
          )}
        </div>
        <p class="field-hint" id="restore-path-hint">
          A path on this computer; svc reads the bundle where it is. Left empty, the last backup is used.
        </p>
        <FieldError id="restore-path-error" messages={byField.path ?? []} />
      </div>
      <div class="field">
        <label for="restore-vault">Folder to put the Library vault in</label>
        <input id="restore-vault" class="path-input" value={vault} onInput={(e) => setVault((e.target as HTMLInputElement).value)} aria-invalid={Boolean(byField.vault)} aria-describedby={described('restore-vault', byField.vault, 'restore-vault-hint')} />
        <p class="field-hint" id="restore-vault-hint">
          Only for a bundle that holds a Library vault: an existing folder, as an absolute path.
        </p>
        <FieldError id="restore-vault-error" messages={byField.vault ?? []} />
      </div>
      <div class="field">
        <label class="check">
          <input type="checkbox" checked={fk} onChange={(e) => setFk((e.target as HTMLInputElement).checked)} aria-describedby={byField.fk ? 'restore-fk-error' : undefined} />
          Restore even if the bundle's database has foreign-key violations
        </label>
        <FieldError id="restore-fk-error" messages={byField.fk ?? []} />
      </div>
      <div class="field">
        <label for="restore-confirm">
          Type <code>{word}</code> to confirm: this installation's data is replaced at the next start
        </label>
        <input id="restore-confirm" value={confirm} autocomplete="off" spellcheck={false} onInput={(e) => setConfirm((e.target as HTMLInputElement).value)} aria-invalid={Boolean(byField.confirm)} aria-describedby={byField.confirm ? 'restore-confirm-error' : undefined} />
        <FieldError id="restore-confirm-error" messages={byField.confirm ?? []} />
      </div>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Verifying the bundle…' : 'Verify and stage the restore'}
        </button>
      </div>
      {!placed && <ErrorNote error={error} title="The restore was not staged." />}
    </form>
  );
}

function Staged({ state }: { state: BackupState }) {
  const staged = state.staged!;
  const [error, setError] = useState<unknown>(null);
  async function act(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
      noteAdminChange();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <div class="note note-warn" role="status">
      <p>
        <strong>A restore is staged; it applies {staged.applies}.</strong>
      </p>
      <dl class="facts">
        <dt>Bundle</dt>
        <dd>
          <code class="path">{staged.bundle_path}</code>, written {minute(staged.bundle_created_at_utc)}
        </dd>
        <dt>Staged</dt>
        <dd>{minute(staged.staged_at_utc)}</dd>
        {staged.vault_target && (
          <>
            <dt>Library vault</dt>
            <dd>
              <code class="path">{staged.vault_target}</code>
            </dd>
          </>
        )}
      </dl>
      <div class="form-actions">
        <button type="button" onClick={() => act(restartBackend)} disabled={restarting.value}>
          {restarting.value ? 'Restarting svc…' : 'Restart svc now'}
        </button>
        <button type="button" class="quiet" onClick={() => act(admin.cancelRestore)} disabled={restarting.value}>
          Cancel the restore
        </button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}

function LastRestore({ state }: { state: BackupState }) {
  const last = state.last_restore;
  const [error, setError] = useState<unknown>(null);
  if (!last) return <p class="muted">No restore has been applied here.</p>;
  const acknowledge = () =>
    admin.acknowledgeRestore().then(noteAdminChange, (err) => setError(err));
  return (
    <div class={last.show_card ? 'note note-ok' : ''}>
      <p>
        Restored {minute(last.applied_at_utc)} from the backup of {minute(last.bundle_created_at_utc)} (<code class="path">{last.bundle_path}</code>).
      </p>
      {last.not_restored.length > 0 ? (
        <>
          <p>It did not:</p>
          <ul class="plain-list">
            {last.not_restored.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>Everything in the bundle was restored.</p>
      )}
      {last.show_card && (
        <button type="button" class="quiet" onClick={acknowledge}>
          Put this note away
        </button>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

function UndoCopy({ state }: { state: BackupState }) {
  const copy = state.undo_copy;
  if (!copy.exists) return <p class="muted">No undo copy is kept: a restore sets the replaced database aside here until you delete it.</p>;
  return (
    <TypedConfirm id="undo-confirm" word={state.confirm_words.undo_copy_delete} button="Delete the undo copies" busyLabel="Deleting…" onConfirm={async (typed) => {
      await admin.deleteUndoCopies(typed);
      noteAdminChange();
    }}>
      <p>
        {copy.count === 1 ? 'One undo copy is' : `${copy.count} undo copies are`} kept ({bytes(copy.byte_size)}): the data a restore replaced, set aside. Deleting
        {copy.count === 1 ? ' it' : ' them'} cannot be undone.
      </p>
    </TypedConfirm>
  );
}

export function RestoreSection({ state }: { state: BackupState | undefined }) {
  return (
    <section class="card admin-section" aria-labelledby="restore-heading" id="restore">
      <h2 id="restore-heading">Restore</h2>
      {state && (state.staged ? <Staged state={state} /> : <StageForm state={state} />)}
      <h3>Last restore</h3>
      {state && <LastRestore state={state} />}
      <h3>Undo copy</h3>
      {state && <UndoCopy state={state} />}
    </section>
  );
}
