/**
 * The JSON of the health read as the route sends it (spec 1: "liveness and
 * process identity"): liveness, the release and schema, the scheduler's and
 * the daemon's state, and the process identity. Declared once here, for the
 * service and the window alike; imports nothing but wire files.
 */
import type { RuntimeIdentity } from './instance.js';

/** daemon: the background daemon; fallback: a backend a window started (no scheduler, stops when idle); server: `svc serve`. */
export type ServerRole = 'server' | 'daemon' | 'fallback';

/** running: this process fires routines; standby: another process of this data directory does (held_by). */
export type SchedulerState = 'running' | 'standby' | 'disabled' | 'not_started';

/** The process that holds the scheduler lease of a data directory (never its process identity). */
export interface LeaseHolder {
  pid: number;
  runtime_id: string;
  /** 'daemon' for the background daemon, 'server' for `svc serve`. */
  role: string;
  /** Null until that process listens (and for a process that never does). */
  port: number | null;
  since_utc: string;
}

/** GET /api/health: reads no database row (the schema version was read at start). */
export interface Health {
  status: 'ok';
  role: ServerRole;
  /** The release label. */
  version: string;
  schema_version: number;
  scheduler: {
    state: SchedulerState;
    /** On standby: the process that fires this data directory's routines instead; null otherwise. */
    held_by: LeaseHolder | null;
  };
  /** Whether a daemon lock file is present (`svc daemon status` reads it further). */
  daemon: { state: 'lock_present' | 'absent' };
  started_at_utc: string;
  /** The window's last heartbeat to this process; null before any. */
  renderer_last_seen_at_utc: string | null;
  identity: RuntimeIdentity;
}

/** POST /api/renderer/heartbeat. */
export interface RendererHeartbeat {
  ok: true;
  received_at_utc: string;
}
