/** Human views for `svc daemon` and `svc serve --daemon`. */
import { describeHolder } from '../../src/scheduler/scheduler.js';
import type { DaemonAnswer } from '../../src/daemon/control.js';
import type { DaemonStatus } from '../../src/wire/daemon.js';

export function statusText(s: DaemonStatus): string {
  if (!s.lock_present) return 'No daemon is running (no lock); `svc daemon start` starts one.';
  if (s.running) {
    const standby = s.scheduler?.state === 'standby' ? `\nIts scheduler is on standby: routines are fired by ${s.scheduler.held_by ? describeHolder(s.scheduler.held_by) : 'another process'}; the daemon takes over when that one stops.` : s.scheduler?.state === 'disabled' ? '\nIts scheduler is disabled (SVC_DISABLE_SCHEDULER): it fires no routines.' : '';
    return `Daemon running: pid ${s.pid}, http://127.0.0.1:${s.port}, svc ${s.version}, started ${s.started_at}${s.is_self ? ' (this process)' : ''}${standby}`;
  }
  // What to do depends on why it does not answer: gone (a start takes the lock over) or still starting (wait).
  const next = s.stale_lock
    ? '`svc daemon start` takes the stale lock over and starts one.'
    : `\`svc daemon attach\` waits for a starting daemon; if it stays silent, \`svc daemon stop\` stops it (its log is daemon.log in the state directory).`;
  return `Daemon lock present (pid ${s.lock_pid ?? 'unknown'}, port ${s.lock_port ?? 'none'}) but not answering: ${s.error}. ${next}`;
}

export function daemonText(a: DaemonAnswer): string {
  const head = a.started ? 'Started the daemon.' : 'A daemon was already running; attached to it.';
  return `${head}\n${statusText(a.status)}${a.log_file ? `\nLog: ${a.log_file}` : ''}`;
}
