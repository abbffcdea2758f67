import { EventEmitter } from 'node:events';

/**
 * In-process events between services (an execution's progress, a routine
 * fired). Listeners that throw are isolated from the emitter.
 */
export type BusListener = (payload: unknown) => void;

export interface Bus {
  emit(topic: string, payload: unknown): void;
  on(topic: string, listener: BusListener): () => void;
}

export function createBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit(topic, payload) {
      for (const listener of emitter.listeners(topic)) {
        try {
          (listener as BusListener)(payload);
        } catch {
          // A broken listener must not stop the work that emitted.
        }
      }
    },
    on(topic, listener) {
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
  };
}
