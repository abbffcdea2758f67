/**
 * A signal aborted once `check` answers true, asked every `everyMs` on an
 * unref'd timer (it never keeps the process alive): how work in one process
 * learns of a change another process made in the database, e.g. its row
 * deleted. `stop` ends the checks; call it when the work ends.
 */
export function abortWhen(check: () => boolean, everyMs: number): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setInterval(() => {
    let hit = false;
    try {
      hit = check();
    } catch {
      // A read the database refused (busy) is tried again at the next tick.
    }
    if (hit) {
      clearInterval(timer);
      controller.abort(new Error('gone'));
    }
  }, everyMs);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}
