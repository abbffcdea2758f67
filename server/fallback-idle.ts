/**
 * The stop rule of a window's fallback backend (`svc serve --fallback`): it
 * stops after the idle time (3 minutes; SVC_FALLBACK_IDLE_MS in tests) without
 * a renderer heartbeat AND with nothing running here — not a run, a check, a
 * scan, a turn, an answer or a request being answered. The page beats every
 * 15 s, but a background tab's timers may slow to one a minute, hence minutes.
 * Once its window shell is gone (the shell closed the backend's stdin: it
 * stopped, or moved to the daemon) the heartbeat no longer counts: it stops
 * as soon as nothing runs.
 */
import { activeWork } from './active-work.js';
import type { AppDeps } from './registry.js';

/** How often the rule is looked at: often enough that a stop comes within a few percent of the idle time. */
const checkEvery = (idleMs: number) => Math.min(15_000, Math.max(20, Math.round(idleMs / 6)));

export interface IdleWatch {
  /** The shell is gone: stop once nothing runs, heartbeat or not. */
  shellGone(): void;
  cancel(): void;
}

/** Calls `onIdle` once, with what was idle, when the rule says stop. `now` is monotonic milliseconds. */
export function watchFallbackIdle({ ctx, runtime }: AppDeps, idleMs: number, onIdle: (why: string) => void, now: () => number = () => performance.now()): IdleWatch {
  let lastBeat = runtime.rendererLastSeenAtUtc;
  let quietSince = now();
  let shellGone = false;
  let done = false;
  const check = () => {
    if (done) return;
    if (runtime.rendererLastSeenAtUtc !== lastBeat) {
      lastBeat = runtime.rendererLastSeenAtUtc;
      quietSince = now();
    }
    const quiet = now() - quietSince >= idleMs;
    if (!shellGone && !quiet) return;
    const busy = activeWork(ctx);
    if (runtime.requestsInFlight > 0) busy.push(`${runtime.requestsInFlight} request(s) being answered`);
    if (busy.length > 0) return;
    done = true;
    clearInterval(timer);
    onIdle(shellGone ? 'its window shell is gone and nothing runs' : `no window heartbeat for ${Math.round(idleMs / 1000)} s and nothing runs`);
  };
  const timer = setInterval(check, checkEvery(idleMs));
  timer.unref();
  return {
    shellGone() {
      shellGone = true;
      check();
    },
    cancel() {
      done = true;
      clearInterval(timer);
    },
  };
}
