/** A project name's refusals, for beside its field: the 422 items naming `name`, or the service's name_invalid. */
import { ApiError, itemsFor } from '../api/errors.js';

export function nameRefusals(err: unknown): string[] {
  const items = itemsFor(err, 'name').map((i) => i.msg);
  if (items.length) return items;
  return err instanceof ApiError && err.reason === 'name_invalid' ? [err.message] : [];
}
