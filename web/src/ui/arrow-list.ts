/**
 * Arrow keys through a list of results: ↓/↑ move focus to the next or
 * previous item (the element marked `data-row-link` in each row), Home/End to
 * the first and last; Enter opens it, as a link does. Attach to the list's
 * container as its onKeyDown.
 */
export function moveThroughRows(event: KeyboardEvent): void {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const container = event.currentTarget as HTMLElement;
  const rows = [...container.querySelectorAll<HTMLElement>('[data-row-link]')];
  if (rows.length === 0) return;
  const at = rows.indexOf(document.activeElement as HTMLElement);
  if (at === -1 && (event.key === 'Home' || event.key === 'End')) return; // inside a field of the list: its own keys
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? rows.length - 1 : event.key === 'ArrowDown' ? Math.min(at + 1, rows.length - 1) : Math.max(at - 1, 0);
  event.preventDefault();
  rows[next]!.focus();
}
