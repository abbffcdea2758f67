/**
 * The background daemon (routines fire only while it runs): its state from
 * the lock (GET /api/service/daemon-status), started and stopped through the
 * window's shell — after either, this tab re-attaches to whichever backend
 * the shell now holds — and the service unit that starts it at login.
 */
import { useState } from 'preact/hooks';
import { admin, type ServiceInstalled, type ServiceUninstalled } from '../api/admin.js';
import { renewSession, session, shellAction } from '../session.js';
import { minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { adminChanged, noteAdminChange } from './restore-state.js';

function DaemonState() {
  const status = useResource((signal) => admin.daemonStatus(signal), [adminChanged.value]);
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  async function act(action: 'daemon/start' | 'daemon/stop') {
    setBusy(action);
    setError(null);
    setSaid(null);
    try {
      const answer = await shellAction<{ message?: string; fell_back?: boolean }>(action);
      await renewSession();
      if (action === 'daemon/stop') setSaid(`${answer.message ?? 'Stopped.'}${answer.fell_back ? ' This window now uses a backend of its own, without a scheduler.' : ''}`);
      noteAdminChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }
  const d = status.data;
  return (
    <div>
      {!d && status.loading && <Busy />}
      <ErrorNote error={status.error} title="svc could not say whether the daemon runs." />
      {d && (
        <dl class="facts">
          <dt>State</dt>
          <dd>
            {d.running ? <span class="chip chip-ok">running</span> : <span class="chip chip-warn">not running</span>}
            {d.error && <span class="cell-note"> {d.error}</span>}
          </dd>
          {d.running && (
            <>
              <dt>Process</dt>
              <dd>
                pid {d.pid}, port {d.port}, version {d.version}, since {minute(d.started_at)}
              </dd>
              <dt>Scheduler</dt>
              <dd>{d.scheduler?.state ?? 'unknown'}</dd>
            </>
          )}
          <dt>This window</dt>
          <dd>{session.value?.role === 'daemon' ? 'is attached to the daemon' : 'uses a backend of its own (no scheduler)'}</dd>
        </dl>
      )}
      {d && (
        <div class="form-actions">
          {d.running ? (
            <button type="button" onClick={() => act('daemon/stop')} disabled={busy !== null}>
              {busy === 'daemon/stop' ? 'Stopping the daemon…' : 'Stop the daemon'}
            </button>
          ) : (
            <button type="button" onClick={() => act('daemon/start')} disabled={busy !== null}>
              {busy === 'daemon/start' ? 'Starting the daemon…' : 'Start the daemon'}
            </button>
          )}
        </div>
      )}
      {said && (
        <p class="note note-ok" role="status">
          {said}
        </p>
      )}
      <ErrorNote error={error} title="The daemon did not change." />
    </div>
  );
}

function Unit() {
  const unit = useResource((signal) => admin.serviceUnit(signal), [adminChanged.value]);
  const [register, setRegister] = useState(false);
  const [answer, setAnswer] = useState<ServiceInstalled | ServiceUninstalled | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function act(fn: () => Promise<ServiceInstalled | ServiceUninstalled>) {
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      setAnswer(await fn());
      unit.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const u = unit.data;
  return (
    <div>
      {!u && unit.loading && <Busy />}
      <ErrorNote error={unit.error} title="svc could not read the service unit." />
      {u && (
        <>
          <dl class="facts">
            <dt>Unit</dt>
            <dd>{!u.supported ? `not installed by svc on ${u.platform}` : u.installed ? 'installed' : 'not installed'}</dd>
            {u.path && (
              <>
                <dt>File</dt>
                <dd>
                  <code class="path">{u.path}</code>
                </dd>
              </>
            )}
          </dl>
          {u.note && <p class="muted">{u.note}</p>}
          {u.supported && (
            <div class="form-actions">
              <label class="check">
                <input type="checkbox" checked={register} onChange={(e) => setRegister((e.target as HTMLInputElement).checked)} />
                {u.installed ? 'Also stop and disable it' : 'Also enable and start it now'}
              </label>
              {u.installed ? (
                <button type="button" class="quiet" disabled={busy} onClick={() => act(() => admin.uninstallUnit(register))}>
                  Uninstall the service unit
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => act(() => admin.installUnit(register))}>
                  Install the service unit
                </button>
              )}
            </div>
          )}
        </>
      )}
      {answer && (
        <p class="note note-ok" role="status">
          {answer.installed ? 'Installed' : 'Removed'}
          {answer.commands_run.length ? `; ran ${answer.commands_run.join('; ')}` : ''}.
        </p>
      )}
      <ErrorNote error={error} title="The service unit did not change." />
    </div>
  );
}

export function DaemonSection() {
  return (
    <section class="card admin-section" aria-labelledby="daemon-heading" id="daemon">
      <h2 id="daemon-heading">Background daemon</h2>
      <p class="muted">Routines fire on their schedule only while the daemon runs. The service unit starts it when you log in.</p>
      <DaemonState />
      <h3>Service unit</h3>
      <Unit />
    </section>
  );
}
