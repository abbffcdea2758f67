/**
 * Reads a server-sent event stream from a fetch Response body: one
 * `{event, data, id?}` per blank-line-terminated frame, as eventsource-parser
 * reads the format (CRLF, LF or a lone CR ends a line; comments dropped; a
 * `retry` field is read and unused, since a provider's answer is one request,
 * never resumed). What this file adds is the bounds below and two habits of
 * the reader it replaced: a frame still open when the body ends is handed on,
 * and a last line cut off without its line ending is not.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { UpstreamError } from './errors.js';

export interface SseMessage {
  event: string;
  data: string;
  /** The frame's `id` field, when it had one. */
  id?: string;
}

/**
 * Bounds on what one peer may make us hold: a provider (or whatever answers
 * at its URL) that streams without a newline or without ending a frame would
 * otherwise grow the buffer until the process runs out of memory.
 */
export const MAX_SSE_LINE_CHARS = 16 * 1024 * 1024;
export const MAX_SSE_FRAME_CHARS = 16 * 1024 * 1024;

/** Where the last line ending in `text` ends (just past it), or -1 without one. */
function pastLastLineEnd(text: string): number {
  const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return end < 0 ? -1 : end + 1;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const ready: SseMessage[] = [];
  let overBound = false;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => void ready.push(messageOf(message)),
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') overBound = true;
    },
    // The line bound is kept here (only whole lines reach the parser), so what the parser holds is the open frame.
    maxBufferSize: MAX_SSE_FRAME_CHARS,
  });
  // The text after the last line ending: the parser is fed whole lines only.
  let tail = '';
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      const cut = pastLastLineEnd(text);
      if (cut < 0) tail += text;
      else {
        parser.feed(tail + text.slice(0, cut));
        tail = text.slice(cut);
      }
      yield* ready.splice(0);
      if (tail.length > MAX_SSE_LINE_CHARS) throw tooLarge('a line', MAX_SSE_LINE_CHARS);
      if (overBound) throw tooLarge('an event', MAX_SSE_FRAME_CHARS);
    }
    // Two line endings close whatever line and frame are still open (a CR held back to see whether an LF follows, too).
    parser.feed('\n\n');
    yield* ready.splice(0);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!signal?.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function messageOf({ event, data, id }: EventSourceMessage): SseMessage {
  return id === undefined ? { event: event ?? 'message', data } : { event: event ?? 'message', data, id };
}

function tooLarge(what: string, limit: number): UpstreamError {
  return new UpstreamError('malformed', null, `The provider's event stream sent ${what} over ${limit / 1024 / 1024} Mi characters.`);
}

/** Parse a frame's JSON data; undefined for anything that is not an object. */
export function frameJson(data: string): Record<string, any> | undefined {
  try {
    const value = JSON.parse(data);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
