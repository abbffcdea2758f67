/**
 * Add a destination to a routine: channel, destination, mode, enabled — the
 * spec's fields with its defaults (enabled, automatic, empty). The service
 * checks the destination; its refusal appears beside the field its `loc`
 * names, in its words.
 */
import { useSignal } from '@preact/signals';
import { CHANNELS, deliveries, MODES, type Channel, type Mode, type Target } from '../api/deliveries.js';
import { ApiError, itemsFor } from '../api/errors.js';
import { ErrorNote, FieldError } from '../ui/notes.js';
import { CHANNEL_LABEL, DESTINATION } from './words.js';

const messages = (err: unknown, field: string) => itemsFor(err, field).map((i) => i.msg);

/** A refusal that no field of the form owns: shown above the button. */
const unplaced = (err: unknown) => (err instanceof ApiError && err.items.length > 0 && ['channel', 'mode', 'target', 'enabled'].some((f) => itemsFor(err, f).length > 0) ? null : err);

export function TargetForm({ routineId, onAdded }: { routineId: number; onAdded: (t: Target) => void }) {
  const channel = useSignal<Channel>('folder');
  const target = useSignal('');
  const mode = useSignal<Mode>('automatic');
  const enabled = useSignal(true);
  const error = useSignal<unknown>(null);
  const busy = useSignal(false);
  const dest = DESTINATION[channel.value];
  const submit = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      const added = await deliveries.addTarget(routineId, { channel: channel.value, target: target.value, mode: mode.value, enabled: enabled.value });
      target.value = '';
      onAdded(added);
    } catch (err) {
      error.value = err;
    } finally {
      busy.value = false;
    }
  };
  const targetErrors = messages(error.value, 'target');
  return (
    <form class="target-form" aria-labelledby="add-target-title" onSubmit={submit} noValidate>
      <h3 id="add-target-title">Add a destination</h3>
      <div class="field-row">
        <div class="field">
          <label for="target-channel">Channel</label>
          <select id="target-channel" value={channel.value} onChange={(e) => ((channel.value = (e.target as HTMLSelectElement).value as Channel), (error.value = null))}>
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABEL[c]}
              </option>
            ))}
          </select>
          <FieldError id="target-channel-error" messages={messages(error.value, 'channel')} />
        </div>
        <div class="field grow">
          <label for="target-destination">{dest.label}</label>
          <input
            id="target-destination"
            value={target.value}
            placeholder={dest.placeholder}
            spellcheck={false}
            autocomplete="off"
            aria-invalid={targetErrors.length > 0}
            aria-describedby={`target-destination-hint${targetErrors.length ? ' target-destination-error' : ''}`}
            onInput={(e) => (target.value = (e.target as HTMLInputElement).value)}
          />
          <p class="field-hint" id="target-destination-hint">
            {dest.hint}
          </p>
          <FieldError id="target-destination-error" messages={targetErrors} />
        </div>
      </div>
      <div class="field-row">
        <fieldset class="field">
          <legend>Mode</legend>
          {MODES.map((m) => (
            <label key={m} class="check">
              <input type="radio" name="target-mode" value={m} checked={mode.value === m} onChange={() => (mode.value = m)} />
              {m === 'automatic' ? 'Automatic: sent as each run completes' : 'Review: held until you deliver it from Review'}
            </label>
          ))}
          <FieldError id="target-mode-error" messages={messages(error.value, 'mode')} />
        </fieldset>
        <div class="field">
          <label class="check">
            <input type="checkbox" checked={enabled.value} onChange={(e) => (enabled.value = (e.target as HTMLInputElement).checked)} />
            Enabled
          </label>
        </div>
      </div>
      <ErrorNote error={unplaced(error.value)} title="svc did not add the destination." />
      <div class="form-actions">
        <button type="submit" disabled={busy.value}>
          {busy.value ? 'Adding…' : 'Add the destination'}
        </button>
      </div>
    </form>
  );
}
