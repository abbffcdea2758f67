/**
 * A routine's destinations, each with what can be changed in place: enabled,
 * the mode, the destination itself (the channel cannot change: remove and add
 * again), the test e-mail for an e-mail destination, how a webhook receiver
 * checks the signature, and removal (what still waited for it is skipped —
 * the service says how many).
 */
import { useSignal } from '@preact/signals';
import { deliveries, MODES, type Mode, type Target } from '../api/deliveries.js';
import { itemsFor } from '../api/errors.js';
import { EmptyState, ErrorNote, FieldError } from '../ui/notes.js';
import { WebhookSigning } from './signing.js';
import { CHANNEL_LABEL, DESTINATION, destinationWords } from './words.js';

function EditDestination({ target, onSaved, onCancel }: { target: Target; onSaved: () => void; onCancel: () => void }) {
  const value = useSignal(target.target);
  const error = useSignal<unknown>(null);
  const id = `edit-target-${target.id}`;
  const save = async (event: Event) => {
    event.preventDefault();
    error.value = null;
    try {
      await deliveries.updateTarget(target.routine_id, target.id, { target: value.value });
      onSaved();
    } catch (err) {
      error.value = err;
    }
  };
  const messages = itemsFor(error.value, 'target').map((i) => i.msg);
  return (
    <form class="inline-form" onSubmit={save} noValidate>
      <div class="field grow">
        <label for={id}>
          {DESTINATION[target.channel].label} of destination {target.id}
        </label>
        <input id={id} value={value.value} spellcheck={false} autocomplete="off" aria-invalid={messages.length > 0} aria-describedby={messages.length ? `${id}-error` : undefined} onInput={(e) => (value.value = (e.target as HTMLInputElement).value)} />
        <FieldError id={`${id}-error`} messages={messages} />
      </div>
      <button type="submit">Save</button>
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
      {messages.length === 0 && <ErrorNote error={error.value} title="svc did not change the destination." />}
    </form>
  );
}

function TestEmail({ target }: { target: Target }) {
  const state = useSignal<'idle' | 'sending' | 'sent'>('idle');
  const failed = useSignal<unknown>(null);
  const send = async () => {
    state.value = 'sending';
    failed.value = null;
    try {
      await deliveries.testEmail(target.target);
      state.value = 'sent';
    } catch (err) {
      failed.value = err;
      state.value = 'idle';
    }
  };
  return (
    <div class="test-email">
      <button type="button" class="quiet" onClick={send} disabled={state.value === 'sending'}>
        {state.value === 'sending' ? 'Sending…' : 'Send a test e-mail'}
      </button>
      {state.value === 'sent' && (
        <p class="note note-ok" role="status">
          The mail server took the test e-mail for {destinationWords(target)}.
        </p>
      )}
      <ErrorNote error={failed.value} title="The test e-mail was not sent." />
    </div>
  );
}

function Remove({ target, onRemoved }: { target: Target; onRemoved: (skipped: number) => void }) {
  const asking = useSignal(false);
  const failed = useSignal<unknown>(null);
  const remove = async () => {
    failed.value = null;
    try {
      onRemoved((await deliveries.removeTarget(target.routine_id, target.id)).deliveries_skipped);
    } catch (err) {
      failed.value = err;
    }
  };
  if (!asking.value) {
    return (
      <button type="button" class="quiet" onClick={() => (asking.value = true)}>
        Remove…
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={`Remove destination ${target.id}`}>
      <p>Remove this destination? Its past deliveries stay; those still waiting for it are skipped.</p>
      <button type="button" class="danger" onClick={remove}>
        Remove destination {target.id}
      </button>
      <button type="button" class="quiet" onClick={() => (asking.value = false)}>
        Keep it
      </button>
      <ErrorNote error={failed.value} />
    </div>
  );
}

function TargetCard({ target, onChanged, onRemoved }: { target: Target; onChanged: () => void; onRemoved: (skipped: number) => void }) {
  const editing = useSignal(false);
  const failed = useSignal<unknown>(null);
  const update = async (body: { enabled?: boolean; mode?: Mode }) => {
    failed.value = null;
    try {
      await deliveries.updateTarget(target.routine_id, target.id, body);
      onChanged();
    } catch (err) {
      failed.value = err;
    }
  };
  return (
    <li class={target.enabled ? 'target-card' : 'target-card disabled'} data-target={target.id}>
      <div class="target-head">
        <h3>
          {CHANNEL_LABEL[target.channel]} <span class="muted">· destination {target.id}</span>
        </h3>
        <span class={target.enabled ? 'chip chip-ok' : 'chip'}>{target.enabled ? 'enabled' : 'disabled'}</span>
        {target.mode === 'review' && <span class="chip chip-warn">held for review</span>}
      </div>
      {editing.value ? (
        <EditDestination target={target} onSaved={() => ((editing.value = false), onChanged())} onCancel={() => (editing.value = false)} />
      ) : (
        <p class="target-destination">
          <span class="muted">{DESTINATION[target.channel].label}: </span>
          <code>{destinationWords(target)}</code>
        </p>
      )}
      <div class="target-controls">
        <label class="check">
          <input type="checkbox" checked={target.enabled} onChange={(e) => update({ enabled: (e.target as HTMLInputElement).checked })} />
          Enabled
        </label>
        <div class="field inline">
          <label for={`mode-${target.id}`}>Mode</label>
          <select id={`mode-${target.id}`} value={target.mode} onChange={(e) => update({ mode: (e.target as HTMLSelectElement).value as Mode })}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m === 'automatic' ? 'automatic' : 'review first'}
              </option>
            ))}
          </select>
        </div>
        {!editing.value && (
          <button type="button" class="quiet" onClick={() => (editing.value = true)}>
            Change the {target.channel === 'webhook' ? 'URL' : DESTINATION[target.channel].label.toLowerCase()}
          </button>
        )}
        <Remove target={target} onRemoved={onRemoved} />
      </div>
      <ErrorNote error={failed.value} title="svc did not change the destination." />
      {target.channel === 'email' && <TestEmail target={target} />}
      {target.channel === 'webhook' && <WebhookSigning routineId={target.routine_id} targetId={target.id} />}
    </li>
  );
}

export function TargetList({ targets, emailEnabled, onChanged, onRemoved }: { targets: Target[]; emailEnabled: boolean; onChanged: () => void; onRemoved: (skipped: number) => void }) {
  if (targets.length === 0) {
    return (
      <EmptyState title="This routine has no destination yet.">
        <p>
          {emailEnabled
            ? 'Its reports go by e-mail to the recipient of the e-mail settings (the routine has e-mail on). '
            : 'Its reports stay in svc: each run has its report on its page. '}
          Add a folder, a webhook, an Atom feed or an e-mail address below; choose “review” to read each report before it goes.
        </p>
      </EmptyState>
    );
  }
  return (
    <ul class="target-list">
      {targets.map((t) => (
        <TargetCard key={t.id} target={t} onChanged={onChanged} onRemoved={onRemoved} />
      ))}
    </ul>
  );
}
