/** Source names for drawing (the id stands in until the catalog arrives, or if it cannot be read). */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { sourceNames } from '../api/source-names.js';

export function useSourceNames(): (id: string) => string {
  const [names, setNames] = useState<Map<string, string> | null>(null);
  useEffect(() => {
    let live = true;
    sourceNames().then((m) => live && setNames(m), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  // One function per catalog, so components given it can skip drawing again.
  return useCallback((id: string) => names?.get(id) ?? id, [names]);
}
