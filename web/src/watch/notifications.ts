/**
 * The browser's notifications, only after the person allowed them (a button
 * calls `allowNotifications`; the browser asks) and only while the tab is in
 * the background — a visible page shows the news itself. What is said: a run
 * started from this window finished; a routine with notify_on_complete
 * finished a run; more reports wait for review than before.
 */
import { signal } from '@preact/signals';
import { navigate } from '../router.js';

export type Permission = NotificationPermission | 'unsupported';

const supported = () => typeof Notification !== 'undefined';
export const permission = signal<Permission>(supported() ? Notification.permission : 'unsupported');

/** Ask the browser (it shows its own prompt once; a refusal is the browser's to undo). */
export async function allowNotifications(): Promise<Permission> {
  if (!supported()) return 'unsupported';
  permission.value = await Notification.requestPermission();
  return permission.value;
}

export const notificationsOn = () => permission.value === 'granted';

/** Say `title` as a notification when allowed and the tab is in the background; a click brings the tab to `path`. */
export function notify(title: string, body: string, path: string, tag: string): void {
  if (!supported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
  const note = new Notification(title, { body, tag });
  note.onclick = () => {
    window.focus();
    navigate(path);
    note.close();
  };
}

// Runs started from this window (the Search page, a routine's Run now), remembered for this tab's session.
const STARTED_KEY = 'svc.started-here';

export function rememberStartedHere(executionId: number): void {
  const ids = startedHere();
  if (!ids.includes(executionId)) sessionStorage.setItem(STARTED_KEY, JSON.stringify([...ids, executionId].slice(-200)));
}

export function startedHere(): number[] {
  try {
    return JSON.parse(sessionStorage.getItem(STARTED_KEY) ?? '[]') as number[];
  } catch {
    return [];
  }
}
