/**
 * Reads a server-sent event stream from a fetch Response body: one
 * `{event, data}` per blank-line-terminated frame; comments dropped.
 */
import { UpstreamError } from './errors.js';

export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Bounds on what one peer may make us hold: a provider (or whatever answers
 * at its URL) that streams without a newline or without ending a frame would
 * otherwise grow the buffer until the process runs out of memory.
 */
export const MAX_SSE_LINE_CHARS = 16 * 1024 * 1024;
export const MAX_SSE_FRAME_CHARS = 16 * 1024 * 1024;

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  // Characters at the start of buffer already known to hold no newline (each read is searched once).
  let scanned = 0;
  let event = '';
  let data: string[] = [];
  let dataChars = 0;
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n', scanned)) >= 0) {
        const line = buffer.slice(0, newline > 0 && buffer[newline - 1] === '\r' ? newline - 1 : newline);
        buffer = buffer.slice(newline + 1);
        scanned = 0;
        if (line === '') {
          if (data.length) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          dataChars = 0;
        } else if (line.startsWith(':')) {
          continue;
        } else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') {
            dataChars += value.length + 1;
            if (dataChars > MAX_SSE_FRAME_CHARS) throw tooLarge('an event', MAX_SSE_FRAME_CHARS);
            data.push(value);
          }
        }
      }
      scanned = buffer.length;
      if (buffer.length > MAX_SSE_LINE_CHARS) throw tooLarge('a line', MAX_SSE_LINE_CHARS);
    }
    if (data.length) yield { event: event || 'message', data: data.join('\n') };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!signal?.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
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
