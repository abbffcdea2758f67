/**
 * The exact request the service would send, as it assembled it: the request
 * SHA-256, the connection and model, the instruction, every source's text
 * with its file, version, page and range, the selected notes, the byte counts
 * and hashes of both prompts, and the limitations. Send is the consent to
 * exactly this hash.
 */
import type { Preview } from '../api/answers.js';
import { minute } from '../ui/format.js';

const range = (s: Preview['payload']['sources'][number]) => (s.segment === 'page' ? 'the whole page' : `characters ${s.start_codepoint}–${s.end_codepoint}`);

export function PreviewView({ preview, connectionLabel, onSend, sending }: { preview: Preview; connectionLabel: string; onSend: () => void; sending: boolean }) {
  const p = preview.payload;
  return (
    <section class="card answer-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">The request that would be sent</h2>
      <dl class="facts">
        <dt>Request SHA-256</dt>
        <dd>
          <code class="sha" id="preview-sha">
            {preview.request_sha256}
          </code>
        </dd>
        <dt>Connection</dt>
        <dd>
          {connectionLabel}, model {p.choices.model ?? 'the default'}
          {p.choices.effort ? `, effort ${p.choices.effort}` : ''}
        </dd>
        <dt>Mode</dt>
        <dd>{p.mode}</dd>
        <dt>Prompts</dt>
        <dd>
          system {preview.system_bytes.toLocaleString()} bytes (<code class="sha-short">{preview.system_sha256.slice(0, 16)}…</code>), user {preview.user_bytes.toLocaleString()} bytes (
          <code class="sha-short">{preview.user_sha256.slice(0, 16)}…</code>)
        </dd>
        <dt>Preview expires</dt>
        <dd>{minute(preview.expires_at_utc)}</dd>
      </dl>
      {!preview.connection.available && (
        <div class="note note-warn" role="status">
          <p>This connection cannot run here now: {preview.connection.reason} Sending will be refused until it can.</p>
        </div>
      )}
      <h3>Instruction</h3>
      <pre class="quote-text">{p.instruction}</pre>
      <h3>Sources</h3>
      <ol class="preview-sources">
        {p.sources.map((s) => (
          <li key={s.source_id}>
            <p>
              <strong>{s.source_id}</strong> {s.filename} <span class="muted mono">{s.file_sha256.slice(0, 12)}</span>, page {s.page}
              {s.page_count ? ` of ${s.page_count}` : ''}, {range(s)}
            </p>
            <pre class="quote-text">{s.text}</pre>
          </li>
        ))}
      </ol>
      {p.notes.length > 0 && (
        <>
          <h3>Notes</h3>
          <ul>
            {p.notes.map((n) => (
              <li key={n.note_id}>
                Note {n.note_id}: <span class="quote-inline">{n.text}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Limitations</h3>
      <ul class="muted">
        {preview.limitations.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      <div class="form-actions">
        <button type="button" onClick={onSend} disabled={sending} aria-describedby="send-consent">
          {sending ? 'Sending…' : 'Send this request'}
        </button>
        <p class="muted small" id="send-consent">
          Sending consents to exactly the request above (SHA-256 {preview.request_sha256.slice(0, 12)}…); a changed selection needs a new preview.
        </p>
      </div>
    </section>
  );
}
