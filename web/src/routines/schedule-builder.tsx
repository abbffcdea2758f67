/**
 * The schedule builder: pick how often, when and in which zone (or type the
 * five cron fields), and see what the service makes of it while typing — the
 * expression a routine stores, the sentence ("every Monday at 08:00,
 * Europe/Berlin") and the next five fires, from the window's shell running
 * the service's own schedule code. A schedule the service refuses shows its
 * words beside the field, as the routes would on submit.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { routines, type SchedulePreview } from '../api/routines.js';
import { FieldError } from '../ui/notes.js';
import { FireList } from './fire-times.js';
import { expressionOf, fieldsOf, WEEKDAYS, zones, type ScheduleDraft, type ScheduleKind } from './schedule.js';

const KINDS: [ScheduleKind, string][] = [
  ['minutes', 'Every few minutes'],
  ['hourly', 'Every hour'],
  ['daily', 'Every day'],
  ['weekly', 'Every week'],
  ['monthly', 'Every month'],
  ['custom', 'Cron fields'],
];

const PREVIEW_DELAY_MS = 250;

interface Props {
  draft: ScheduleDraft;
  onChange: (draft: ScheduleDraft) => void;
  /** The refusal of the last submit for schedule_cron, in the service's words. */
  errors: string[];
}

export function ScheduleBuilder({ draft, onChange, errors }: Props) {
  const [preview, setPreview] = useState<SchedulePreview | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const expression = expressionOf(draft);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      routines.preview(fieldsOf(draft), draft.timezone).then(
        (answer) => current && (setPreview(answer), setFailed(null)),
        (err: Error) => current && setFailed(err.message),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [expression]);
  const zoneList = useMemo(zones, []);
  const set = (patch: Partial<ScheduleDraft>) => {
    const next = { ...draft, ...patch };
    onChange(patch.kind === 'custom' || patch.fields !== undefined ? next : { ...next, fields: fieldsOf(next) });
  };
  const fresh = preview && preview.expression === expression ? preview : null;
  const refusal = fresh?.refusal ? [fresh.refusal.message] : errors;
  const toggleDay = (day: number, on: boolean) => set({ weekdays: on ? [...draft.weekdays.filter((d) => d !== day), day] : draft.weekdays.filter((d) => d !== day) });
  return (
    <fieldset class="schedule-builder" aria-describedby="schedule-words">
      <legend>Schedule</legend>
      <div class="field-row">
        <div class="field">
          <label for="schedule-kind">How often</label>
          <select id="schedule-kind" value={draft.kind} onChange={(e) => set({ kind: (e.target as HTMLSelectElement).value as ScheduleKind })}>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {draft.kind === 'minutes' && (
          <div class="field">
            <label for="schedule-every">Every how many minutes</label>
            <input id="schedule-every" type="number" min={1} max={59} value={draft.every} onInput={(e) => set({ every: (e.target as HTMLInputElement).value })} />
          </div>
        )}
        {draft.kind === 'hourly' && (
          <div class="field">
            <label for="schedule-minute">Minutes past the hour</label>
            <input id="schedule-minute" type="number" min={0} max={59} value={draft.minute} onInput={(e) => set({ minute: (e.target as HTMLInputElement).value })} />
          </div>
        )}
        {(draft.kind === 'daily' || draft.kind === 'weekly' || draft.kind === 'monthly') && (
          <div class="field">
            <label for="schedule-time">At</label>
            <input id="schedule-time" type="time" value={draft.time} onInput={(e) => (e.target as HTMLInputElement).value && set({ time: (e.target as HTMLInputElement).value })} />
          </div>
        )}
        {draft.kind === 'monthly' && (
          <div class="field">
            <label for="schedule-day">Day of the month</label>
            <input id="schedule-day" type="number" min={1} max={31} value={draft.monthDay} onInput={(e) => set({ monthDay: (e.target as HTMLInputElement).value })} />
          </div>
        )}
        <div class="field">
          <label for="schedule-zone">Time zone</label>
          <select id="schedule-zone" value={draft.timezone} onChange={(e) => set({ timezone: (e.target as HTMLSelectElement).value })}>
            {(zoneList.includes(draft.timezone) ? zoneList : [draft.timezone, ...zoneList]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
      </div>
      {draft.kind === 'weekly' && (
        <fieldset class="weekdays">
          <legend>On</legend>
          {WEEKDAYS.map((day, i) => (
            <span class="check" key={day}>
              <input id={`schedule-day-${i}`} type="checkbox" checked={draft.weekdays.includes(i)} onChange={(e) => toggleDay(i, (e.target as HTMLInputElement).checked)} />
              <label for={`schedule-day-${i}`}>{day}</label>
            </span>
          ))}
        </fieldset>
      )}
      <div class="field">
        <label for="schedule-cron">Cron expression</label>
        <input
          id="schedule-cron"
          class="mono"
          value={fieldsOf(draft)}
          spellcheck={false}
          aria-invalid={refusal.length > 0}
          aria-describedby="schedule-cron-hint schedule-error"
          onInput={(e) => set({ kind: 'custom', fields: (e.target as HTMLInputElement).value })}
        />
        <p class="field-hint" id="schedule-cron-hint">
          Five fields: minute, hour, day of month, month, day of week. Editing them here replaces the choices above. Stored as <code>{expression}</code>.
        </p>
        <FieldError id="schedule-error" messages={refusal} />
      </div>
      <div class="schedule-words" id="schedule-words" aria-live="polite">
        {fresh?.sentence && (
          <p class="schedule-sentence">
            Runs <strong>{fresh.sentence}</strong>.
          </p>
        )}
        {fresh && fresh.next_fires.length > 0 && <FireList fires={fresh.next_fires} zone={fresh.timezone} label="The next five fires" />}
        {failed && <p class="muted">The window could not preview this schedule ({failed}); svc still checks it when the routine is saved.</p>}
      </div>
    </fieldset>
  );
}
