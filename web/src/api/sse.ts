/**
 * Server-sent events over fetch: EventSource cannot send an Authorization
 * header, and the token must never travel in a URL. eventsource-parser reads
 * the body as it arrives; the caller's signal ends the stream (navigating
 * away aborts it).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from './client.js';

export interface StreamOptions {
  signal: AbortSignal;
  query?: Record<string, string | number | undefined>;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Extra request headers (the Library header of the Evidence routes). */
  headers?: Record<string, string>;
}

/** Read the event stream at `path`, calling `onEvent` per event, until it ends or `signal` aborts. */
export async function readEventStream(path: string, onEvent: (event: EventSourceMessage) => void, options: StreamOptions): Promise<void> {
  const response = await request<Response>(options.method ?? 'GET', path, { raw: true, signal: options.signal, query: options.query, body: options.body, headers: { accept: 'text/event-stream', ...options.headers } });
  if (!response.body) return;
  const parser = createParser({ onEvent });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    reader.releaseLock();
  }
}
