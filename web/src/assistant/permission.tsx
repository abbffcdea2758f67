/**
 * A permission request the agent CLI holds open until the person answers:
 * the tool and its input, Allow, or Deny with an optional reason the agent
 * is told. The service refuses an answer to a request already answered or
 * closed (a cancelled turn); its words are shown.
 */
import { useState } from 'preact/hooks';
import { assistant } from '../api/assistant.js';
import { ErrorNote } from '../ui/notes.js';
import type { PermissionAsk } from './turn.js';

export function PermissionPrompt({ ask }: { ask: PermissionAsk }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = `permission-${ask.request_id}`;
  const answer = async (allow: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await assistant.answerPermission(ask.request_id, allow, allow ? null : reason.trim() || null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="permission" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} class="permission-title">
        The agent asks to use <strong>{ask.tool_name}</strong>
        {ask.answered === null ? '' : ask.answered ? ' — allowed' : ' — denied'}
      </p>
      <pre>{JSON.stringify(ask.input, null, 2)}</pre>
      {ask.answered === null && (
        <>
          <div class="field">
            <label for={`${id}-reason`}>Reason to give if you deny (optional)</label>
            <input id={`${id}-reason`} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
          </div>
          <div class="form-actions">
            <button type="button" onClick={() => answer(true)} disabled={busy}>
              Allow
            </button>
            <button type="button" class="danger" onClick={() => answer(false)} disabled={busy}>
              Deny
            </button>
          </div>
        </>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
