/**
 * The frames a turn produces, buffered so the worker never waits for a
 * reader: the SSE route and the CLI both iterate them; a reader that stops
 * early simply stops reading.
 */
import type { TurnEvent } from '../wire/assistant.js';

export type TurnFrame = TurnEvent;

export interface FrameQueue extends AsyncIterable<TurnFrame> {
  push(frame: TurnFrame): void;
  end(): void;
  /** Frames until the end or until `signal` aborts. */
  read(signal?: AbortSignal): AsyncGenerator<TurnFrame>;
}

export function frameQueue(): FrameQueue {
  const buffer: TurnFrame[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  async function* read(signal?: AbortSignal): AsyncGenerator<TurnFrame> {
    const onAbort = () => notify();
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (buffer.length) {
          yield buffer.shift()!;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return {
    push(frame) {
      buffer.push(frame);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    read,
    [Symbol.asyncIterator]: () => read(),
  };
}
