/**
 * Where a refusal of an Administration form goes: beside the field its 422
 * item's `loc` names, or beside the field a domain refusal's reason is about
 * (the restore's vault_parent_missing, the cloud link's cloud_url_invalid…),
 * else above the form. Only placement: the words are the service's.
 */
import { ApiError } from '../api/errors.js';

export interface FieldRule {
  /** The body key of the field (the last part of a 422 item's loc). */
  key: string;
  /** Reasons of domain refusals about this field. */
  reasons?: string[];
}

export function placeRefusal<F extends string>(err: unknown, fields: Record<F, FieldRule>): { byField: Partial<Record<F, string[]>>; placed: boolean } {
  const byField: Partial<Record<F, string[]>> = {};
  if (!(err instanceof ApiError)) return { byField, placed: false };
  const entries = Object.entries(fields) as [F, FieldRule][];
  if (err.items.length) {
    let all = true;
    for (const item of err.items) {
      const key = String(item.loc[item.loc.length - 1]);
      const field = entries.find(([, rule]) => rule.key === key)?.[0];
      if (field) (byField[field] ??= []).push(item.msg);
      else all = false;
    }
    return { byField, placed: all };
  }
  const field = entries.find(([, rule]) => rule.reasons?.includes(err.reason))?.[0];
  if (field) byField[field] = [err.message];
  return { byField, placed: field !== undefined };
}
