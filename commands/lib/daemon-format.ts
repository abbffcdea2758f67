/** Human views for `svc daemon` and `svc serve --daemon`. */
import type { DaemonAnswer } from '../../src/daemon/control.js';
import type { DaemonStatus } from '../../src/daemon/status.js';

export function statusText(s: DaemonStatus): string {
  if (!s.lock_present) return 'No daemon is running (no lock); `svc daemon start` starts one.';
  if (s.running) return `Daemon running: pid ${s.pid}, http://127.0.0.1:${s.port}, svc ${s.version}, started ${s.started_at}${s.is_self ? ' (this process)' : ''}`;
  // What to do depends on why it does not answer: gone (a start takes the lock over) or still starting (wait).
  const next = /stale/.test(s.error ?? '')
    ? '`svc daemon start` takes the stale lock over and starts one.'
    : `\`svc daemon attach\` waits for a starting daemon; if it stays silent, \`svc daemon stop\` stops it (its log is daemon.log in the state directory).`;
  return `Daemon lock present (pid ${s.lock_pid ?? 'unknown'}, port ${s.lock_port ?? 'none'}) but not answering: ${s.error}. ${next}`;
}

export function daemonText(a: DaemonAnswer): string {
  const head = a.started ? 'Started the daemon.' : 'A daemon was already running; attached to it.';
  return `${head}\n${statusText(a.status)}${a.log_file ? `\nLog: ${a.log_file}` : ''}`;
}
