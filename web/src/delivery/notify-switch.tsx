/** Whether the window may notify: off until the person asks, and then the browser's answer. */
import { allowNotifications, permission } from '../watch/notifications.js';

export function NotifySwitch() {
  const p = permission.value;
  return (
    <aside class="notify-switch" aria-label="Notifications">
      {p === 'granted' && <p>Notifications are on: while this tab is in the background, svc tells you when a report awaits review, a run you started here finishes, or a routine that asks to notify completes a run.</p>}
      {p === 'denied' && <p>This browser blocks svc's notifications; allow them in the site settings of this address to be told when a report awaits review.</p>}
      {p === 'unsupported' && <p>This browser cannot show notifications.</p>}
      {p === 'default' && (
        <>
          <p>Be told when a report awaits review, a run you started here finishes, or a routine that asks to notify completes a run — while this tab is in the background.</p>
          <button type="button" class="quiet" onClick={() => void allowNotifications()}>
            Turn on notifications
          </button>
        </>
      )}
    </aside>
  );
}
