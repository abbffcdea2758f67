/**
 * A turn of the event loop that lets waiting I/O in: resolves on the second
 * setImmediate. One is not enough from code that runs while the loop polls
 * (an answer, a worker's message): its immediate runs in the same turn, before
 * the loop polls again, so requests that arrived meanwhile would still wait;
 * the second runs after the next poll.
 */
export const ioTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
