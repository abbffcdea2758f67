/**
 * The cloud copy (a WebDAV folder): its link and last upload, unlink, and the
 * link form. The password is sent once and dropped from the page whatever
 * the answer: it is kept by svc's credential store, never here.
 */
import { useState } from 'preact/hooks';
import { admin, type CloudLink, type CloudStatus } from '../api/admin.js';
import { minute } from '../ui/format.js';
import { Busy, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { placeRefusal } from './place.js';
import { adminChanged } from './restore-state.js';

const FIELDS = {
  url: { key: 'url', reasons: ['cloud_url_invalid', 'cloud_unreachable', 'cloud_refused'] },
  username: { key: 'username', reasons: ['cloud_username_required'] },
  password: { key: 'password', reasons: ['cloud_password_required', 'cloud_credentials_refused'] },
  folder: { key: 'remote_folder', reasons: ['cloud_folder_invalid'] },
};

const EMPTY: CloudLink = { url: '', username: '', password: '', remote_folder: '' };

function LinkForm({ onLinked }: { onLinked: () => void }) {
  const [link, setLink] = useState<CloudLink>(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const sent = link;
    setLink({ ...link, password: '' }); // sent once, never kept in the page
    try {
      await admin.linkCloud(sent);
      setLink(EMPTY);
      onLinked();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const { byField, placed } = placeRefusal(error, FIELDS);
  const field = (id: keyof typeof FIELDS, label: string, props: Record<string, unknown>, hint?: string) => (
    <div class="field">
      <label for={`cloud-${id}`}>{label}</label>
      <input
        id={`cloud-${id}`}
        {...props}
        aria-invalid={Boolean(byField[id])}
        aria-describedby={[hint ? `cloud-${id}-hint` : '', byField[id] ? `cloud-${id}-error` : ''].filter(Boolean).join(' ') || undefined}
      />
      {hint && (
        <p class="field-hint" id={`cloud-${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`cloud-${id}-error`} messages={byField[id] ?? []} />
    </div>
  );
  const key = (k: keyof CloudLink) => ({ value: link[k], onInput: (e: Event) => setLink({ ...link, [k]: (e.target as HTMLInputElement).value }) });
  return (
    <form class="cloud-form" onSubmit={submit} noValidate aria-label="Link a cloud account">
      <div class="field-row">
        {field('url', 'WebDAV address', { type: 'url', placeholder: 'https://cloud.example.org/remote.php/dav/files/you/', ...key('url') })}
        {field('username', 'User name', { autocomplete: 'username', ...key('username') })}
      </div>
      <div class="field-row">
        {field('password', 'Password or app password', { type: 'password', autocomplete: 'new-password', ...key('password') }, 'Sent once to svc, which keeps it in its credential store; this page forgets it.')}
        {field('folder', 'Folder for the backups', { placeholder: 'svc', ...key('remote_folder') }, 'Left empty: svc’s setting (svc by default).')}
      </div>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Checking the account…' : 'Link the cloud account'}
        </button>
      </div>
      {!placed && <ErrorNote error={error} title="The cloud account was not linked." />}
    </form>
  );
}

function Linked({ status, onChange }: { status: CloudStatus; onChange: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const unlink = () => admin.unlinkCloud().then(onChange, (err) => setError(err));
  return (
    <>
      <dl class="facts">
        <dt>Linked to</dt>
        <dd>
          <code class="path">{status.url}</code> as {status.username}
        </dd>
        <dt>Folder</dt>
        <dd>{status.remote_folder}</dd>
        <dt>Password</dt>
        <dd>{status.password === 'present' ? 'stored' : status.password}</dd>
        <dt>Last upload</dt>
        <dd>{status.last_upload ? `${minute(status.last_upload.created_at_utc)} (${status.last_upload.remote_path ?? status.last_upload.path})` : 'none yet (svc cloud backup)'}</dd>
      </dl>
      <button type="button" class="quiet" onClick={unlink}>
        Unlink the cloud account
      </button>
      <ErrorNote error={error} title="The cloud account was not unlinked." />
    </>
  );
}

export function CloudSection() {
  const status = useResource((signal) => admin.cloudStatus(signal), [adminChanged.value]);
  return (
    <section class="card admin-section" aria-labelledby="cloud-heading" id="cloud">
      <h2 id="cloud-heading">Cloud copy</h2>
      <p class="muted">A copy of each backup in a WebDAV folder (Nextcloud, ownCloud…).</p>
      {!status.data && status.loading && <Busy />}
      <ErrorNote error={status.error} title="svc could not read the cloud link." />
      {status.data && (status.data.linked ? <Linked status={status.data} onChange={status.reload} /> : <LinkForm onLinked={status.reload} />)}
    </section>
  );
}
