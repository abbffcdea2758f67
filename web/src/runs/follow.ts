/**
 * Follow a running run over its event stream (GET …/progress/stream, read
 * through fetch so the token stays in a header): every event in order, what
 * each source has sent so far, and a call to `onSettle` when a source or the
 * run settles, so the page reads the service's account again. A dropped
 * stream is taken up again after the last event seen.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { readEventStream } from '../api/sse.js';
import { TERMINAL_KINDS, type RunEvent } from '../api/executions.js';

export interface LiveSource {
  asking: boolean;
  pages: number;
  kept: number;
  reported: number | null;
}

export interface Follow {
  events: RunEvent[];
  live: Record<string, LiveSource>;
  /** Why the stream stopped before the run ended, while it is being taken up again. */
  trouble: unknown;
}

const RETRY_MS = 3000;

function apply(live: Record<string, LiveSource>, event: RunEvent): Record<string, LiveSource> {
  if (!event.source) return live;
  const before = live[event.source] ?? { asking: false, pages: 0, kept: 0, reported: null };
  const data = event.data ?? {};
  if (event.kind === 'source_started') return { ...live, [event.source]: { ...before, asking: true } };
  if (event.kind === 'source_page') {
    return { ...live, [event.source]: { asking: true, pages: Number(data.page ?? before.pages + 1), kept: before.kept + Number(data.kept ?? 0), reported: typeof data.total === 'number' ? data.total : before.reported } };
  }
  if (event.kind === 'source_finished') return { ...live, [event.source]: { ...before, asking: false } };
  return live;
}

export function useFollow(id: number, running: boolean, onSettle: () => void): Follow {
  const [state, setState] = useState<Follow>({ events: [], live: {}, trouble: null });
  const settle = useRef(onSettle);
  settle.current = onSettle;
  useEffect(() => setState({ events: [], live: {}, trouble: null }), [id]);
  useEffect(() => {
    if (!running) return;
    const controller = new AbortController();
    let last = 0;
    let ended = false;
    const onEvent = (message: { data: string }) => {
      const event = JSON.parse(message.data) as RunEvent;
      if (event.seq <= last) return;
      last = event.seq;
      if (TERMINAL_KINDS.has(event.kind)) ended = true;
      setState((s) => ({ events: [...s.events, event], live: apply(s.live, event), trouble: null }));
      if (event.kind === 'source_finished' || ended) settle.current();
    };
    (async () => {
      while (!controller.signal.aborted && !ended) {
        try {
          await readEventStream(`/api/executions/${id}/progress/stream`, onEvent, { signal: controller.signal, query: { after: last || undefined } });
          // The stream ends after the terminal event, or when the run is no longer running.
          settle.current();
          return;
        } catch (err) {
          if (controller.signal.aborted) return;
          setState((s) => ({ ...s, trouble: err }));
          await new Promise((r) => setTimeout(r, RETRY_MS));
        }
      }
    })();
    return () => controller.abort();
  }, [id, running]);
  return state;
}
