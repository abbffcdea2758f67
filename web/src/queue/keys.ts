/**
 * ←/→ on the board move focus to the paper at the same height in the column
 * beside (or its last one when that column is shorter); ↓/↑ within a column
 * are the lists' own (ui/arrow-list.ts). Attach to the board as its onKeyDown.
 */
export function moveAcrossColumns(event: KeyboardEvent): void {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
  const board = event.currentTarget as HTMLElement;
  const here = document.activeElement as HTMLElement | null;
  if (!here?.matches('[data-row-link]')) return;
  const columns = [...board.querySelectorAll<HTMLElement>('[data-column]')];
  const from = columns.findIndex((c) => c.contains(here));
  const to = columns[from + (event.key === 'ArrowRight' ? 1 : -1)];
  if (from === -1 || !to) return;
  const row = [...columns[from]!.querySelectorAll<HTMLElement>('[data-row-link]')].indexOf(here);
  const targets = [...to.querySelectorAll<HTMLElement>('[data-row-link]')];
  event.preventDefault();
  (targets[Math.min(row, targets.length - 1)] ?? to.querySelector<HTMLElement>('h2'))?.focus();
}
