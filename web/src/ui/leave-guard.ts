/**
 * Ask before leaving a page while something there would be lost by leaving:
 * a stream the service cancels when its reader goes (an answer being
 * written, an assistant turn). Covers a reload or closing the tab, and links
 * inside the window; the question is the caller's sentence.
 */
import { useEffect } from 'preact/hooks';

/** Ask before leaving while `on`: a reload or closing the tab, and links inside the window. */
export function useLeaveGuard(on: boolean, question: string): void {
  useEffect(() => {
    if (!on) return;
    const beforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (!a || a.hasAttribute('download')) return;
      if (!confirm(question)) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    };
    addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [on, question]);
}

