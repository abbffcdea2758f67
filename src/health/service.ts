import fs from 'node:fs';
import type { Context } from '../context.js';
import { identityOf } from '../runtime/runtime-identity.js';
import type { RuntimeIdentity as Identity } from '../wire/instance.js';
import { svcVersion } from '../version.js';
import type { LeaseHolder } from '../scheduler/lease.js';

export interface HealthInput {
  /** daemon: the background daemon; fallback: a backend a window started (no scheduler, stops when idle); server: `svc serve`. */
  role: 'server' | 'daemon' | 'fallback';
  schedulerState: 'running' | 'standby' | 'disabled' | 'not_started';
  /** On standby: the process that schedules routines of this data directory instead. */
  schedulerHeldBy?: LeaseHolder | null;
  startedAtUtc: string;
  rendererLastSeenAtUtc: string | null;
}

export interface Health {
  status: 'ok';
  role: 'server' | 'daemon' | 'fallback';
  version: string;
  schema_version: number;
  scheduler: { state: string; held_by: LeaseHolder | null };
  daemon: { state: 'lock_present' | 'absent' };
  started_at_utc: string;
  renderer_last_seen_at_utc: string | null;
  identity: Identity;
}

/** Liveness and process identity. Reads no database row (the schema version was read at start). */
export function readHealth(ctx: Context, input: HealthInput): Health {
  return {
    status: 'ok',
    role: input.role,
    version: svcVersion(),
    schema_version: ctx.schemaVersion,
    scheduler: { state: input.schedulerState, held_by: input.schedulerHeldBy ?? null },
    daemon: { state: fs.existsSync(ctx.paths.daemonLock) ? 'lock_present' : 'absent' },
    started_at_utc: input.startedAtUtc,
    renderer_last_seen_at_utc: input.rendererLastSeenAtUtc,
    identity: identityOf(ctx.runtimeId, ctx.schemaVersion),
  };
}
