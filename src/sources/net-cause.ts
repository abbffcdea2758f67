/**
 * Why a request got no HTTP answer at all, in words a person can act on:
 * `ENOTFOUND export.arxiv.org`, `ECONNREFUSED 127.0.0.1:9`, a TLS error, a
 * timeout after N s. fetch hides the cause two levels down (TypeError "fetch
 * failed" → cause with a system `code`); this digs it out by code, never by
 * parsing messages.
 */

export type NetworkKind = 'dns' | 'refused' | 'unreachable' | 'tls' | 'timeout' | 'reset' | 'other';

export interface NetworkCause {
  /** The system or TLS code (ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED, …), or TimeoutError. */
  code: string;
  kind: NetworkKind;
  /** One phrase: "ENOTFOUND export.arxiv.org (no such host, or no DNS)". */
  text: string;
  /** Worth another attempt: a timeout or a dropped connection may pass; a missing host or a refusal will not. */
  retry: boolean;
}

const KIND: Record<string, NetworkKind> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  EAI_FAIL: 'dns',
  ECONNREFUSED: 'refused',
  ENETUNREACH: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

const PHRASE: Record<NetworkKind, string> = {
  dns: 'no such host, or no DNS',
  refused: 'connection refused',
  unreachable: 'network unreachable',
  tls: 'TLS error',
  timeout: 'timed out',
  reset: 'connection dropped',
  other: 'network error',
};

interface Coded {
  code?: unknown;
  name?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
}

/** The innermost error in the cause chain that carries a code. */
function codedCause(err: unknown): Coded | undefined {
  let found: Coded | undefined;
  let current = err as Coded | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    if (typeof current.code === 'string') found = current;
    current = current.cause as Coded | undefined;
  }
  return found;
}

const isTls = (code: string) => /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_CERT)/.test(code) || code.includes('CERT');

/**
 * What went wrong on the wire for `url`, or undefined when `err` carries no
 * network cause (then the caller keeps the exception class as evidence).
 */
export function networkCause(err: unknown, url: string, timeoutMs: number): NetworkCause | undefined {
  const e = err as Coded & { cause?: Coded };
  const timedOut = e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError';
  if (timedOut) return { code: 'TimeoutError', kind: 'timeout', text: `timeout after ${Math.round(timeoutMs / 100) / 10} s`, retry: true };
  const coded = codedCause(err);
  if (!coded) return undefined;
  const code = String(coded.code);
  const kind: NetworkKind = KIND[code] ?? (isTls(code) ? 'tls' : 'other');
  let where = '';
  try {
    const u = new URL(url);
    where = kind === 'refused' || kind === 'unreachable' ? (typeof coded.address === 'string' ? `${coded.address}${coded.port ? `:${coded.port}` : ''}` : u.host) : u.hostname;
  } catch {
    where = typeof coded.hostname === 'string' ? coded.hostname : '';
  }
  if (kind === 'dns' && typeof coded.hostname === 'string') where = coded.hostname;
  const text = kind === 'tls' ? `TLS error ${code} talking to ${where}` : `${code} ${where} (${PHRASE[kind]})`.replace('  ', ' ');
  return { code, kind, text, retry: kind === 'timeout' || kind === 'reset' || kind === 'other' };
}

/** Kinds that say this machine, not the source, is cut off. */
export function looksOffline(kind: NetworkKind | undefined): boolean {
  return kind === 'dns' || kind === 'unreachable';
}
