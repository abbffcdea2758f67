/**
 * Upstream failures as SvcErrors whose message never carries a key: the
 * provider's own error text is scrubbed of every secret the caller names and
 * cut short.
 */
import { SvcError } from '../errors.js';
import { readBodyBounded } from '../util/bounded-body.js';

/**
 * Replace each secret (4 characters or more) in `text` by [redacted], and the
 * user part of any URL in it (an SVC_AI_<ID>_URL may carry "me:password@"; a
 * network error quotes the URL). Up to the authority's last @: a password may
 * hold an @ of its own ("me:pa@ss@host").
 */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  for (const secret of secrets) if (secret && secret.length >= 4) text = text.split(secret).join('[redacted]');
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/gi, '$1[redacted]@');
}

export type UpstreamKind = 'unauthorized' | 'rate_limited' | 'not_found' | 'bad_request' | 'server_error' | 'unreachable' | 'malformed';

export class UpstreamError extends SvcError {
  readonly kind: UpstreamKind;
  readonly upstreamStatus: number | null;
  constructor(kind: UpstreamKind, upstreamStatus: number | null, message: string) {
    super(502, 'upstream_error', message, { upstream_kind: kind, upstream_status: upstreamStatus });
    this.kind = kind;
    this.upstreamStatus = upstreamStatus;
  }
}

export function kindForStatus(status: number): UpstreamKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** An error body is read this far at most: a broken endpoint may answer an error with a body that never ends. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The provider's error message, if its body has one, scrubbed and shortened. */
export async function upstreamFailure(provider: string, res: Response, secrets: readonly (string | undefined)[]): Promise<UpstreamError> {
  let detail = '';
  try {
    const text = (await readBodyBounded(res, MAX_ERROR_BODY_BYTES)).text ?? '';
    try {
      const body = JSON.parse(text);
      const message = body?.error?.message ?? body?.message ?? (typeof body?.error === 'string' ? body.error : undefined);
      detail = typeof message === 'string' ? message : '';
    } catch {
      detail = '';
    }
  } catch {
    detail = '';
  }
  detail = scrub(detail, secrets).replace(/\s+/g, ' ').slice(0, 300);
  const kind = kindForStatus(res.status);
  const what = kind === 'unauthorized' ? 'refused the key' : kind === 'rate_limited' ? 'is rate limiting this key' : `answered HTTP ${res.status}`;
  return new UpstreamError(kind, res.status, `${provider} ${what}${detail ? `: ${detail}` : '.'}`);
}

export function unreachable(provider: string, err: unknown, secrets: readonly (string | undefined)[]): UpstreamError {
  const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
  return new UpstreamError('unreachable', null, `${provider} could not be reached: ${scrub(cause, secrets).slice(0, 200)}`);
}
