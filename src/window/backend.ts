/**
 * The backend a window talks to — the daemon of its data directory, or a
 * fallback it started — seen from the shell, which is a client like the CLI:
 * health over HTTP, the token the daemon published, and the registration of
 * the renderer origin (sent without an Origin header, as spec 1 requires:
 * a browser can never widen the list).
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import type { DaemonStatus } from '../wire/daemon.js';
import { readPublishedToken } from '../runtime/token.js';

export const BACKEND_PROBE_TIMEOUT_MS = 1500;

export type BackendRole = 'daemon' | 'fallback';

export interface Backend {
  role: BackendRole;
  port: number;
  baseUrl: string;
  token: string;
  runtimeId: string;
}

/** What the page is told about its backend (never the token: the exchange hands that over on its own). */
export const backendView = (b: Backend) => ({ base_url: b.baseUrl, role: b.role, runtime_id: b.runtimeId });

const bearer = (b: Pick<Backend, 'token'>) => ({ authorization: `Bearer ${b.token}` });

/** The backend's runtime id when it answers its health route with this token in time; null otherwise. */
export async function probeBackend(ctx: Context, b: Pick<Backend, 'baseUrl' | 'token'>, timeoutMs = BACKEND_PROBE_TIMEOUT_MS): Promise<string | null> {
  try {
    const res = await ctx.fetch(`${b.baseUrl}/api/health`, { headers: bearer(b), signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const health = (await res.json()) as { identity?: { runtime_id?: unknown } };
    return typeof health.identity?.runtime_id === 'string' ? health.identity.runtime_id : null;
  } catch {
    return null;
  }
}

/** Allow the renderer origin on the backend (the daemon keeps its eight most recent, in memory). */
export async function registerOrigin(ctx: Context, b: Backend, origin: string): Promise<void> {
  let res: Response;
  try {
    res = await ctx.fetch(`${b.baseUrl}/api/auth/renderer-origin`, {
      method: 'POST',
      headers: { ...bearer(b), 'content-type': 'application/json' },
      body: JSON.stringify({ origin }),
      signal: AbortSignal.timeout(BACKEND_PROBE_TIMEOUT_MS * 2),
    });
  } catch {
    throw new SvcError(503, 'backend_unreachable', `The ${b.role} on ${b.baseUrl} stopped answering while the window registered with it.`);
  }
  if (!res.ok) throw new SvcError(502, 'origin_not_registered', `The ${b.role} on ${b.baseUrl} refused the window's origin (${res.status}): ${(await res.text()).slice(0, 200)}`);
}

/** The running daemon as a backend: its port from the lock, its token from the file it published, its identity from health. */
export async function daemonBackend(ctx: Context, status: DaemonStatus): Promise<Backend> {
  const port = status.port!;
  const token = readPublishedToken(ctx.paths, port);
  const baseUrl = `http://127.0.0.1:${port}`;
  const runtimeId = token ? await probeBackend(ctx, { baseUrl, token }) : null;
  if (!token || !runtimeId) {
    throw new SvcError(409, 'daemon_not_answering', `The daemon on port ${port} ${token ? 'does not answer with the token it published' : 'published no token file'}; stop it with \`svc daemon stop\` and run svc window again.`);
  }
  return { role: 'daemon', port, baseUrl, token, runtimeId };
}
