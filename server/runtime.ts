import type { OriginRegistry } from '../src/runtime/origins.js';
import type { LeaseHolder, SchedulerState, ServerRole } from '../src/wire/health.js';

export type { SchedulerState, ServerRole } from '../src/wire/health.js';

/** What one serving process knows about itself beyond the Context. */
export interface ServerRuntime {
  /** The bound port (known after listen; the guard compares Host with it). */
  port: number;
  token: string;
  origins: OriginRegistry;
  startedAtUtc: string;
  rendererLastSeenAtUtc: string | null;
  scheduler: { readonly state: SchedulerState; readonly held_by?: LeaseHolder | null };
  /**
   * 'daemon' for the background daemon (`svc serve --daemon`): its runs are owned by the daemon role;
   * 'fallback' for the backend a window starts when no daemon runs (`svc serve --fallback`).
   */
  role: ServerRole;
  /** HTTP requests being answered now (a fallback does not stop under one). */
  requestsInFlight: number;
  signedRoutes: SignedRoute[];
}

/**
 * A route that proves itself with a signed link instead of the token. The
 * guard finds the per-destination secret through `secretFor`; no secret (an
 * unknown delivery, or one that was not a webhook) fails the signature.
 */
export interface SignedRoute {
  method: string;
  path: string;
  secretFor(params: string[]): string | undefined | Promise<string | undefined>;
}
