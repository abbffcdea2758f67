/**
 * Backups: take one (the route answers once, when the bundle is written, so
 * the page shows the time it has been writing), the last one written, and a
 * verify that recomputes every hash and says what a restore would and would
 * not do — all in the service's words.
 */
import { useState } from 'preact/hooks';
import { admin, type BackupCreated, type BackupState, type VerifyAnswer } from '../api/admin.js';
import { bytes, minute } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useElapsed } from './elapsed.js';
import { noteAdminChange } from './restore-state.js';

function TakeBackup() {
  const [includeReports, setIncludeReports] = useState(true);
  const [since, setSince] = useState<number | null>(null);
  const [written, setWritten] = useState<BackupCreated | null>(null);
  const [error, setError] = useState<unknown>(null);
  const elapsed = useElapsed(since);
  async function take(event: Event) {
    event.preventDefault();
    setSince(Date.now());
    setError(null);
    setWritten(null);
    try {
      setWritten(await admin.backup(includeReports));
      noteAdminChange();
    } catch (err) {
      setError(err);
    } finally {
      setSince(null);
    }
  }
  return (
    <form class="inline-form" onSubmit={take} noValidate>
      <label class="check">
        <input type="checkbox" checked={includeReports} onChange={(e) => setIncludeReports((e.target as HTMLInputElement).checked)} />
        Include the report files
      </label>
      <button type="submit" disabled={since !== null}>
        Take a backup
      </button>
      {since !== null && <Busy label={`Writing the backup… ${elapsed} s`} />}
      {written && (
        <p class="note note-ok" role="status">
          Backup written: <code>{written.path}</code> ({bytes(written.byte_size)}, {written.file_count.toLocaleString()} files).
        </p>
      )}
      <ErrorNote error={error} title="The backup was not written." />
    </form>
  );
}

function Verify({ path }: { path: string }) {
  const [answer, setAnswer] = useState<VerifyAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function verify() {
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      setAnswer(await admin.verify(path));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div class="verify">
      <button type="button" class="quiet" onClick={verify} disabled={busy}>
        Verify this backup
      </button>
      {busy && <Busy label="Recomputing every hash…" />}
      <ErrorNote error={error} title="The backup did not verify." />
      {answer && (
        <div class="note note-ok" role="status">
          <p>
            Every hash matches: {answer.files_checked.toLocaleString()} files checked{answer.known_to_this_installation ? ', written by this installation' : ''}.
          </p>
          <p class="verify-head">A restore would:</p>
          <ul class="plain-list">
            {answer.restore_would.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {answer.restore_would_not.length > 0 && (
            <>
              <p class="verify-head">It would not:</p>
              <ul class="plain-list">
                {answer.restore_would_not.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}

export function BackupSection({ state }: { state: BackupState | undefined }) {
  const last = state?.last_backup ?? null;
  return (
    <section class="card admin-section" aria-labelledby="backup-heading" id="backup">
      <h2 id="backup-heading">Backup</h2>
      <p class="muted">One bundle of the database, the Library vault's files and, if you like, the report files. Stored keys are never in a bundle.</p>
      <TakeBackup />
      <h3>Last backup</h3>
      {state && !last && (
        <EmptyState title="No backup has been written yet.">
          <p>Take one above; it can then be verified and restored from this page.</p>
        </EmptyState>
      )}
      {last && (
        <>
          <dl class="facts">
            <dt>Written</dt>
            <dd>{minute(last.created_at_utc)}</dd>
            <dt>File</dt>
            <dd>
              <code class="path">{last.path}</code>
              {!last.exists && <span class="chip chip-warn">no longer there</span>}
            </dd>
            <dt>Size</dt>
            <dd>
              {bytes(last.byte_size)}, {last.file_count.toLocaleString()} files{last.include_reports ? ', with report files' : ', without report files'}
            </dd>
          </dl>
          <Verify key={last.path} path={last.path} />
        </>
      )}
    </section>
  );
}
