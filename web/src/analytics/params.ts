/**
 * The analytics page's choices live in its address (window, split, top, runs,
 * routine), so a view can be reloaded and shared within the session's tab:
 * a control writes its parameter back, keeping the others.
 */
import { ApiError, itemsFor } from '../api/errors.js';
import { place } from '../router.js';

export const param = (name: string) => place.value.query.get(name) ?? '';

/**
 * A refusal split between the controls it names (a 422 item's loc ends with the parameter) and the
 * rest: each control shows its own messages beside it, the view the rest.
 */
export function refusalByField(error: unknown, fields: string[]): { byField: Record<string, string[]>; rest: unknown } {
  const byField = Object.fromEntries(fields.map((f) => [f, itemsFor(error, f).map((i) => i.msg)]));
  const placed = Object.values(byField).reduce((n, messages) => n + messages.length, 0);
  const whole = error instanceof ApiError && error.items.length > 0 && placed === error.items.length;
  return { byField, rest: whole ? null : error };
}
