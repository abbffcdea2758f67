/**
 * Delivery errors as they are stored and shown. The rule of spec 1: error text
 * never contains the destination. Folder and feed errors say <target>, email
 * errors <address>, webhook errors only the exception class or HTTP status.
 * Messages are built from codes, never from an upstream message; `scrub` is
 * the second line of defence for anything that slips through.
 */
import type { DeliveryChannel } from './summary.js';

export class DeliveryFailure extends Error {
  /** False when another attempt cannot help (a configuration gap): the delivery fails at once, and retry is for after the fix. */
  readonly retryable: boolean;
  constructor(message: string, retryable = true) {
    super(message);
    this.name = 'DeliveryFailure';
    this.retryable = retryable;
  }
}

export const PLACEHOLDER: Record<DeliveryChannel, string> = { email: '<address>', folder: '<target>', feed: '<target>', webhook: '<url>' };

/** Replace every secret or destination string in `text` by the channel's placeholder. */
export function scrub(text: string, secrets: (string | null | undefined)[], placeholder: string): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 3) out = out.split(s).join(placeholder);
  }
  return out;
}

/** A file-system error as words and its code, never its path. */
export function fsProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOENT: 'it does not exist',
    ENOTDIR: 'it is not a directory',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ELOOP: 'it is a symbolic link',
    EISDIR: 'a directory is in the way',
  };
  return code ? `${words[code] ?? 'file system error'} (${code})` : `unexpected error (${errorClass(err)})`;
}

export function errorClass(err: unknown): string {
  if (err instanceof Error) return err.name && err.name !== 'Error' ? err.name : err.constructor?.name ?? 'Error';
  return typeof err;
}
