import fs from 'node:fs';
import type { Context } from '../context.js';
import { identityOf } from '../runtime/runtime-identity.js';
import { svcVersion } from '../version.js';
import type { Health, LeaseHolder, SchedulerState, ServerRole } from '../wire/health.js';

export type { Health } from '../wire/health.js';

export interface HealthInput {
  role: ServerRole;
  schedulerState: SchedulerState;
  /** On standby: the process that schedules routines of this data directory instead. */
  schedulerHeldBy?: LeaseHolder | null;
  startedAtUtc: string;
  rendererLastSeenAtUtc: string | null;
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
