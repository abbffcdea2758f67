/**
 * One watchdog finding: how bad (broken or unusual), what it is about (a
 * source, a routine, a delivery), the service's sentence, since when, what to
 * do and what it rests on — with Mute (and an optional note saying why) or, for
 * a muted one, when and why it was muted and Unmute.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { itemsFor } from '../api/errors.js';
import { watchdog, type Finding } from '../api/watchdog.js';
import { minute, relative } from '../ui/format.js';
import { ErrorNote, FieldError } from '../ui/notes.js';
import { WithCode } from './commands.js';
import { Evidence } from './evidence.js';

const LABELS: Record<Finding['label'], string> = { broken: 'Broken', unusual: 'Unusual' };
const KINDS: Record<string, string> = { source: 'Source', routine: 'Routine', delivery: 'Delivery' };

function Subject({ finding }: { finding: Finding }) {
  const { kind, name } = finding.subject;
  return (
    <p class="finding-subject">
      <span class="muted">{KINDS[kind] ?? kind}:</span> {name}
    </p>
  );
}

function MuteForm({ finding, onDone, onCancel }: { finding: Finding; onDone: (message: string) => void; onCancel: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const id = `note-${finding.key}`;
  const noteErrors = itemsFor(error, 'note').map((i) => i.msg);
  async function mute(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await watchdog.mute(finding.key, note.trim() || null);
      onDone(`Muted “${finding.title}”. ${answer.alarm_total === 1 ? '1 alarm' : `${answer.alarm_total} alarms`} left.`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  return (
    <form class="mute-form" onSubmit={mute} noValidate>
      <label for={id}>Why is it acknowledged? (optional)</label>
      <textarea
        id={id}
        rows={2}
        value={note}
        onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
        aria-invalid={noteErrors.length > 0}
        aria-describedby={noteErrors.length ? `${id}-error` : undefined}
        placeholder="e.g. the source is down for maintenance until Monday"
        ref={field}
      />
      <FieldError id={`${id}-error`} messages={noteErrors} />
      {noteErrors.length === 0 && <ErrorNote error={error} title="svc did not mute it." />}
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Muting…' : 'Mute'}
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function FindingCard({ finding, onChanged }: { finding: Finding; onChanged: (message: string) => void }) {
  const [muting, setMuting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const muteButton = useRef<HTMLButtonElement>(null);
  async function unmute() {
    setBusy(true);
    setError(null);
    try {
      const answer = await watchdog.unmute(finding.key);
      onChanged(`Unmuted “${finding.title}”: it counts again. ${answer.alarm_total === 1 ? '1 alarm' : `${answer.alarm_total} alarms`}.`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  const titleId = `finding-${finding.key}`;
  return (
    <article class={`finding finding-${finding.label}`} aria-labelledby={titleId} data-key={finding.key}>
      <div class="finding-head">
        <span class={`chip ${finding.label === 'broken' ? 'chip-danger' : 'chip-warn'}`}>{LABELS[finding.label]}</span>
        <Subject finding={finding} />
        {finding.since_utc && (
          <p class="finding-since">
            since <time dateTime={finding.since_utc}>{minute(finding.since_utc)}</time> <span class="muted">({relative(finding.since_utc)})</span>
          </p>
        )}
      </div>
      <h3 id={titleId} class="finding-title">
        {finding.title}
      </h3>
      <p class="finding-todo">
        <strong>What to do:</strong> <WithCode text={finding.what_to_do} />
      </p>
      {finding.muted && (
        <p class="finding-muted">
          Muted <time dateTime={finding.muted_at_utc ?? undefined}>{minute(finding.muted_at_utc)}</time>
          {finding.mute_note ? <> — “{finding.mute_note}”</> : ' (no note)'}
        </p>
      )}
      <Evidence evidence={finding.evidence} thresholds={finding.thresholds} />
      <ErrorNote error={error} title="svc did not unmute it." />
      {finding.muted ? (
        <div class="finding-actions">
          <button type="button" class="quiet" onClick={unmute} disabled={busy}>
            {busy ? 'Unmuting…' : 'Unmute'}
          </button>
        </div>
      ) : muting ? (
        <MuteForm
          finding={finding}
          onDone={onChanged}
          onCancel={() => {
            setMuting(false);
            requestAnimationFrame(() => muteButton.current?.focus());
          }}
        />
      ) : (
        <div class="finding-actions">
          <button type="button" class="quiet" ref={muteButton} onClick={() => setMuting(true)}>
            Mute…
          </button>
        </div>
      )}
    </article>
  );
}
