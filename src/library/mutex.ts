/** A first-come first-served async lock: one holder at a time, in arrival order. */
export interface Mutex {
  run<T>(fn: () => Promise<T> | T): Promise<T>;
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T> | T): Promise<T> {
      const result = tail.then(() => fn());
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
