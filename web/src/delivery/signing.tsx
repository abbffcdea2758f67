/**
 * How a webhook receiver checks that a request came from svc, and the
 * destination's signing secret on request. The secret never travels through
 * svc's HTTP API (spec 1); the window's shell, a process on this computer,
 * reads it as `svc routine target secret` does and hands it to this tab only.
 */
import { useSignal } from '@preact/signals';
import { shellAction } from '../session.js';
import { ErrorNote } from '../ui/notes.js';

const RECIPE = `mac = hmac_sha256(secret, timestamp + "." + raw_body)
ok  = constant_time_equal("sha256=" + hex(mac), header["X-Svc-Signature"])
      and abs(now - timestamp) < 300     # timestamp = header["X-Svc-Timestamp"]`;

export function WebhookSigning({ routineId, targetId }: { routineId: number; targetId: number }) {
  const secret = useSignal<string | null>(null);
  const failed = useSignal<unknown>(null);
  const busy = useSignal(false);
  const show = async () => {
    busy.value = true;
    failed.value = null;
    try {
      secret.value = (await shellAction<{ secret: string }>('webhook-secret', { routine_id: routineId, target_id: targetId })).secret;
    } catch (err) {
      failed.value = err;
    } finally {
      busy.value = false;
    }
  };
  const command = `svc routine target secret ${routineId} ${targetId}`;
  return (
    <details class="signing">
      <summary>How the receiver checks the signature</summary>
      <p>
        Each request carries <code>X-Svc-Timestamp</code> (Unix seconds) and <code>X-Svc-Signature: sha256=…</code>: HMAC-SHA256, keyed with this
        destination's secret, over the timestamp, a full stop and the raw body. The receiver recomputes it, compares in constant time and refuses
        old timestamps:
      </p>
      <pre class="recipe">{RECIPE}</pre>
      <p>
        The envelope's <code>bundle.url</code> links to the whole report for 24 hours, signed with the same secret. The secret never travels through
        svc's HTTP API: run <code>{command}</code> in a terminal, or show it here (the window asks svc on this computer). A restore from a backup gives
        the destination a new secret.
      </p>
      {secret.value === null ? (
        <button type="button" class="quiet" onClick={show} disabled={busy.value}>
          {busy.value ? 'Asking svc…' : 'Show the signing secret'}
        </button>
      ) : (
        <div class="secret-row">
          <label for={`secret-${targetId}`}>Signing secret of destination {targetId}</label>
          <input id={`secret-${targetId}`} class="secret" readOnly value={secret.value} spellcheck={false} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          <button type="button" class="quiet" onClick={() => (secret.value = null)}>
            Hide
          </button>
        </div>
      )}
      <ErrorNote error={failed.value} title="The secret could not be shown." />
    </details>
  );
}
