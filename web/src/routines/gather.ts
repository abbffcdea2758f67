/**
 * Ask one thing of each of many routines (the routes answer per routine), a
 * few at a time and in the list's order, handing each answer over as soon as
 * it is in: a page shows what has arrived while the rest is still asked.
 */

/**
 * At most this many requests at once: a browser opens six connections to one
 * origin, and two stay free for what the person does meanwhile (read a
 * report, press Deliver) and for the window's own poll.
 */
export const GATHER_AT_ONCE = 4;

export type Gathered<A> = { answer: A } | { error: unknown };

/** Ask `ask(item)` for every item, `atOnce` at a time; `onAnswer` gets each outcome. Stops asking when `signal` aborts (what is in flight is aborted by its own signal). */
export async function gatherEach<T, A>(items: readonly T[], ask: (item: T) => Promise<A>, onAnswer: (item: T, outcome: Gathered<A>) => void, signal: AbortSignal, atOnce = GATHER_AT_ONCE): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++]!;
      try {
        const answer = await ask(item);
        if (!signal.aborted) onAnswer(item, { answer });
      } catch (error) {
        if (!signal.aborted && (error as Error)?.name !== 'AbortError') onAnswer(item, { error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}
