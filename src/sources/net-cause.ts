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
  message?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
}

/** The errors in a cause chain, outermost first (ofetch's FetchError → TypeError "fetch failed" → undici's reason). */
function chain(err: unknown): Coded[] {
  const out: Coded[] = [];
  let current = err as Coded | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    out.push(current);
    current = current.cause as Coded | undefined;
  }
  return out;
}

/** The innermost error in the cause chain that carries a code. */
function codedCause(err: unknown): Coded | undefined {
  return chain(err).findLast((e) => typeof e.code === 'string');
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
  // A URL fetch cannot parse is no trouble on the wire (requestProblem names it).
  if (!coded || coded.code === 'ERR_INVALID_URL') return undefined;
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

/** A request fetch refused to send, or that failed with no coded cause: what to tell, whether to try again. */
export interface RequestProblem {
  /** Evidence for the search record: InvalidURL, UnsupportedScheme, BlockedPort, or the error's class. */
  code: string;
  text: string;
  retry: boolean;
}

/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): fetch refuses
 * them before connecting, and undici says only "bad port", with no code, so the port decides.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Any URL, or anything with a query string, out of a message: it may carry a key or a private address. */
const noUrls = (text: string) => text.replace(/\S*(:\/\/|\?)\S*/g, '<url>');

/**
 * Why fetch gave no answer when no network code says (networkCause found none). fetch refuses
 * some requests before sending them: a URL it cannot parse (an SVC_SOURCE_*_URL override with a
 * typo), a scheme other than http(s), a URL with a user name or password, a port on the Fetch
 * standard's bad-port list (6000, 6666, 5060…). None of these changes on a retry. `setting` names the
 * environment variable the base URL came from, when it was overridden. The URL itself is never
 * quoted: it may hold a key.
 */
export function requestProblem(err: unknown, url: string, setting: string | undefined): RequestProblem {
  const errors = chain(err);
  const fix = setting ? `; check ${setting}` : '';
  const invalid: RequestProblem = { code: 'InvalidURL', text: `invalid URL${setting ? ` in ${setting}` : ''} (fetch cannot parse it)`, retry: false };
  if (errors.some((e) => e.code === 'ERR_INVALID_URL')) return invalid;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalid;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    // "localhost:8080/api" parses too, as the scheme "localhost:": the usual slip is a missing http://.
    return { code: 'UnsupportedScheme', text: `"${parsed.protocol}" is not a scheme fetch can use; start ${setting ?? 'the URL'} with http:// or https://`, retry: false };
  }
  if (parsed.username || parsed.password) {
    // fetch refuses a URL with user-info (the Fetch standard): a proxy's log-in cannot ride in it.
    return { code: 'URLCredentials', text: `the URL carries a user name or password, which fetch refuses to send${setting ? `; remove them from ${setting}` : ''}`, retry: false };
  }
  if (parsed.port && BAD_PORTS.has(Number(parsed.port))) {
    return { code: 'BlockedPort', text: `port ${parsed.port} is blocked by fetch (a port browsers refuse too)${fix}`, retry: false };
  }
  const innermost = errors[errors.length - 1];
  const said = typeof innermost?.message === 'string' ? innermost.message.replace(/\s+/g, ' ').trim() : '';
  const name = String(errors[1]?.name ?? errors[0]?.name ?? 'Error');
  const words = noUrls(said).slice(0, 120);
  // "fetch failed" alone says nothing more than the class.
  return { code: name, text: words && words !== 'fetch failed' ? `request failed (${name}: ${words})` : `request failed (${name})`, retry: true };
}

/** Kinds that say this machine, not the source, is cut off. */
export function looksOffline(kind: NetworkKind | undefined): boolean {
  return kind === 'dns' || kind === 'unreachable';
}
