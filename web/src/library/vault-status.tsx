/**
 * The vault as the service describes it: label, id, counts, and whether its
 * folder opens as this vault — when it does not, the Library's own words for
 * what to do. Without a vault, the form that creates one.
 */
import { useState } from 'preact/hooks';
import { library, type LibraryStatusWithFolder } from '../api/library.js';
import { itemsFor } from '../api/errors.js';
import { bytes, count, minute } from '../ui/format.js';
import { ErrorNote, FieldError } from '../ui/notes.js';

export function VaultFacts({ status }: { status: LibraryStatusWithFolder }) {
  const vault = status.vault!;
  const folder = status.folder;
  return (
    <section class="card library-vault" aria-labelledby="vault-heading">
      <h2 id="vault-heading">Vault “{vault.label}”</h2>
      <dl class="facts">
        <dt>Folder</dt>
        <dd>
          {folder?.reachable ? <span class="chip chip-ok">reachable</span> : <span class="chip chip-danger">not reachable</span>}
        </dd>
        <dt>Holds</dt>
        <dd>
          {count(status.counts.files, 'file')}, {bytes(status.counts.retained_bytes)}, {count(status.counts.paper_links, 'paper link')}
        </dd>
        <dt>Limits</dt>
        <dd>
          {bytes(status.limits.file_bytes)} a file, {bytes(status.limits.vault_bytes)} in all, {status.limits.catalog_items.toLocaleString()} files
        </dd>
        <dt>Created</dt>
        <dd>{minute(vault.created_at_utc)}</dd>
        <dt>Vault id</dt>
        <dd>
          <code>{vault.vault_id}</code>
        </dd>
      </dl>
      {folder && !folder.reachable && (
        <div class="note note-error" role="alert">
          <strong class="note-title">svc cannot open the vault folder, so nothing can be imported or read now.</strong>
          <p>{folder.message}</p>
          <p>
            In the window, a backup is restored from <a href="/admin">Administration</a>.
          </p>
          {folder.reason && <p class="note-reason">svc's reason: {folder.reason.replace(/_/g, ' ')}</p>}
        </div>
      )}
    </section>
  );
}

export function CreateVault({ onCreated }: { onCreated: () => void }) {
  const [parent, setParent] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await library.createVault(parent);
      onCreated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const beside = itemsFor(error, 'parent_directory').map((i) => i.msg);
  return (
    <section class="card library-vault" aria-labelledby="create-vault-heading">
      <h2 id="create-vault-heading">Create the Library vault</h2>
      <p class="muted">
        The Library keeps read-only copies of your PDF, TXT and MD files in one vault: a new folder <code>svc-library-…</code> that svc creates inside a folder you name. No existing folder is adopted, and the vault cannot move later.
      </p>
      <form class="inline-form field-line" onSubmit={submit} noValidate>
        <label for="vault-parent">Folder to create the vault in (an absolute path)</label>
        <input
          id="vault-parent"
          class="path-input"
          value={parent}
          placeholder="/home/you/Papers"
          spellcheck={false}
          autocomplete="off"
          onInput={(e) => setParent((e.target as HTMLInputElement).value)}
          aria-invalid={beside.length > 0 || Boolean(error)}
          aria-describedby={beside.length ? 'vault-parent-error' : error ? 'vault-parent-refusal' : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create the vault'}
        </button>
        <FieldError id="vault-parent-error" messages={beside} />
        {beside.length === 0 && error && (
          <div id="vault-parent-refusal">
            <ErrorNote error={error} title="The vault was not created." />
          </div>
        )}
      </form>
    </section>
  );
}
