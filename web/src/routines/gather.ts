/**
 * Ask one thing of each of many routines (the routes answer per routine), a
 * few at a time and in the order asked, handing each answer over as soon as
 * it is in: a page shows what has arrived while the rest is still asked.
 */

/**
 * At most this many requests at once: a browser opens six connections to one
 * origin, and two stay free for what the person does meanwhile (read a
 * report, press Deliver) and for the window's own poll.
 */
export const GATHER_AT_ONCE = 4;

export type Gathered<A> = { answer: A } | { error: unknown };

/** A queue of asks, `atOnce` at a time in the order added; nothing more is asked once `signal` aborts (what is in flight is aborted by its own signal). */
export function gatherer(signal: AbortSignal, atOnce = GATHER_AT_ONCE) {
  const queue: (() => Promise<void>)[] = [];
  let running = 0;
  const pump = () => {
    while (running < atOnce && queue.length > 0 && !signal.aborted) {
      const next = queue.shift()!;
      running++;
      void next().finally(() => {
        running--;
        pump();
      });
    }
  };
  return {
    /** Ask `ask(item)` for every item after what is already queued; `onAnswer` gets each outcome. */
    add<T, A>(items: readonly T[], ask: (item: T) => Promise<A>, onAnswer: (item: T, outcome: Gathered<A>) => void): void {
      for (const item of items) {
        queue.push(() =>
          ask(item).then(
            (answer) => void (signal.aborted || onAnswer(item, { answer })),
            (error) => void (signal.aborted || (error as Error)?.name === 'AbortError' || onAnswer(item, { error })),
          ),
        );
      }
      pump();
    },
  };
}
