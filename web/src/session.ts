/**
 * The page's session with svc: the API token it took for a one-time launch
 * code, the backend it talks to, and the secret for the shell's actions. It
 * lives in this tab's sessionStorage only (a reload keeps it; a new tab, a
 * pasted link or another site never sees it) — never localStorage, a cookie or
 * a URL. The launch code arrives in the address's fragment and is removed
 * from the address bar before anything else happens.
 */
import { signal } from '@preact/signals';

export interface Session {
  token: string;
  baseUrl: string;
  role: 'daemon' | 'fallback' | 'server';
  runtimeId: string | null;
  shellSecret: string;
  /** The backend origins the page's Content-Security-Policy lets it reach. */
  connectOrigins: string[];
}

interface ExchangeAnswer {
  token: string;
  backend: { base_url: string; role: Session['role']; runtime_id?: string | null };
  shell_secret: string;
  connect_origins?: string[];
}

const STORAGE_KEY = 'svc.session';

export class SessionRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

function load(): Session | null {
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}

function save(value: Session | null): void {
  if (value) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  else sessionStorage.removeItem(STORAGE_KEY);
  session.value = value;
}

/** The session, or null when this tab has none (the page then says how to get in). */
export const session = signal<Session | null>(load());

export function currentSession(): Session {
  const value = session.value;
  if (!value) throw new SessionRefused('no_session', 'This tab has no session with svc.');
  return value;
}

/** The launch code in the address's fragment (#launch=…), removed from the address bar at once. */
export function takeLaunchCode(): string | null {
  const match = /(?:^#|&)launch=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!match) return null;
  const rest = location.hash.replace(/(^#|&)launch=[A-Za-z0-9_-]+/, '$1').replace(/^#&?$/, '');
  history.replaceState(history.state, '', location.pathname + location.search + rest);
  return match[1]!;
}

async function shellCall<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, cache: 'no-store', headers: { 'content-type': 'application/json', ...init.headers } });
  } catch {
    throw new SessionRefused('shell_unreachable', 'The svc window that served this page has stopped. Run `svc window` again.');
  }
  const body = (await response.json().catch(() => null)) as { detail?: { reason?: string; message?: string } } | null;
  if (!response.ok) throw new SessionRefused(body?.detail?.reason ?? `http_${response.status}`, body?.detail?.message ?? `The window answered ${response.status}.`);
  return body as T;
}

/** Trade a one-time launch code for the session; a code is good once. */
export async function exchange(code: string): Promise<Session> {
  const answer = await shellCall<ExchangeAnswer>('/shell/exchange', { method: 'POST', body: JSON.stringify({ code }) });
  const value: Session = {
    token: answer.token,
    baseUrl: answer.backend.base_url,
    role: answer.backend.role,
    runtimeId: answer.backend.runtime_id ?? null,
    shellSecret: answer.shell_secret,
    connectOrigins: answer.connect_origins ?? [new URL(answer.backend.base_url).origin],
  };
  save(value);
  return value;
}

/** A shell action (start the daemon, restart the backend, a fresh launch code…); only a tab with a session may call one. */
export function shellAction<T = unknown>(name: string, body?: unknown): Promise<T> {
  const secret = currentSession().shellSecret;
  return shellCall<T>(`/shell/${name}`, { method: 'POST', headers: { 'x-svc-shell': secret }, body: JSON.stringify(body ?? {}) });
}

let renewing: Promise<Session> | null = null;

/**
 * Take a fresh token through the shell (after the backend changed: a new daemon mints a new token).
 * One renewal at a time; when the new backend is an origin this page's policy does not reach, reload
 * (the session survives in sessionStorage and the reloaded page's policy names the new backend).
 */
export function renewSession(): Promise<Session> {
  renewing ??= (async () => {
    try {
      const before = currentSession();
      const { code } = await shellAction<{ code: string }>('launch-code');
      const after = await exchange(code);
      if (!before.connectOrigins.includes(new URL(after.baseUrl).origin)) location.reload();
      return after;
    } finally {
      renewing = null;
    }
  })();
  return renewing;
}

/** Open `path` in a new tab that gets its own session through a fresh launch code. */
export async function openInNewTab(path: string): Promise<void> {
  const { code } = await shellAction<{ code: string }>('launch-code');
  window.open(`${path}#launch=${code}`, '_blank', 'noopener');
}

export const forgetSession = () => save(null);
