/**
 * Notifications (settings group "notifications", routine notify_on_complete):
 * a "notification" event on the bus, which the window shows on the desktop,
 * and a log line. A completed run notifies when the routine asks
 * (notify_on_complete) or the settings do (on_complete); a failed run, a
 * failed delivery or a routine's missed fires when on_failure is set.
 * desktop_enabled false silences all.
 */
import type { Context } from '../context.js';

export type NotificationKind = 'run_completed' | 'run_failed' | 'delivery_failed' | 'fires_missed';

export interface Notification {
  kind: NotificationKind;
  routine_id: number | null;
  /** Null for missed fires: nothing ran. */
  execution_id: number | null;
  message: string;
  at_utc: string;
}

export const NOTIFICATION_TOPIC = 'notification';

export function notify(ctx: Context, kind: NotificationKind, routineId: number | null, executionId: number | null, message: string, routineAsks = false): boolean {
  const settings = ctx.settings.read('notifications');
  if (settings.desktop_enabled !== true) return false;
  const wanted = kind === 'run_completed' ? routineAsks || settings.on_complete === true : settings.on_failure === true;
  if (!wanted) return false;
  const note: Notification = { kind, routine_id: routineId, execution_id: executionId, message, at_utc: ctx.nowIso() };
  ctx.bus.emit(NOTIFICATION_TOPIC, note);
  ctx.log.info(`notification ${kind}: ${message}`);
  return true;
}
