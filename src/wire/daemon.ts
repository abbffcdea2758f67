/**
 * The JSON of the daemon and its service unit as the routes send it (spec 1,
 * "Backup, restore, service, admin, runtime"): the daemon status read from its
 * lock (the ground truth) and its port's health, and the unit file that starts
 * it at login. Declared once here, for the service and the window alike;
 * imports nothing but wire files.
 */
import type { LeaseHolder } from './health.js';

export type { LeaseHolder } from './health.js';

/** GET /api/service/daemon-status: pid, port, version and started_at are the probe's, set only when the daemon answered; lock_* are what the lock says. */
export interface DaemonStatus {
  lock_present: boolean;
  running: boolean;
  pid: number | null;
  port: number | null;
  version: string | null;
  started_at: string | null;
  lock_pid: number | null;
  lock_port: number | null;
  lock_version: string | null;
  /** Why the daemon is not running (or not answering), in words; null when it answered. */
  error: string | null;
  /** The lock names a process that is gone: `svc daemon start` takes it over (error says so in words). */
  stale_lock: boolean;
  /** Whether the process that answered the probe is the one answering this read. */
  is_self: boolean;
  /** The daemon's scheduler as its health says: running, or standby while another process of the data directory fires routines (held_by). Null when it did not answer. */
  scheduler: { state: string; held_by: LeaseHolder | null } | null;
}

/** How this platform would start the daemon at login; svc installs only the first two. */
export type UnitKind = 'systemd-user' | 'launchd-agent' | 'windows-task' | 'unsupported';

/** GET /api/service/status: whether the unit file is installed, and its path. */
export interface ServiceUnit {
  /** Node's name for the platform (linux, darwin, win32, …). */
  platform: string;
  kind: UnitKind;
  supported: boolean;
  installed: boolean;
  /** Where the unit file is (or would be); null where svc installs none. */
  path: string | null;
  /** Windows only: how to start the daemon at logon by hand. */
  note?: string;
}

/** POST /api/service/install: the unit written; with register, the service manager's commands that enabled and started it. */
export interface ServiceInstalled extends ServiceUnit {
  registered: boolean;
  commands_run: string[];
}

/** POST /api/service/uninstall: whether a unit file was there to remove; with deregister, the commands that stopped it. */
export interface ServiceUninstalled extends ServiceUnit {
  removed: boolean;
  commands_run: string[];
}
