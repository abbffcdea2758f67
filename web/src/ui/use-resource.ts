/**
 * Load something from the backend for a component: its answer, its refusal
 * (an ApiError, shown in words by <ErrorNote>), whether it is loading, and a
 * way to load it again. A newer load wins over an older one still in flight,
 * and leaving the page aborts what is in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const controller = new AbortController();
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    load(controller.signal).then(
      (data) => mine === latest.current && setState({ data, error: null, loading: false }),
      (error) => mine === latest.current && (error as Error)?.name !== 'AbortError' && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
