/**
 * A list of fixed-height rows of which only those near the viewport are drawn,
 * so a hundred thousand papers scroll like ten. It scrolls with the page (one
 * scroll bar, whatever sits above it), keeps rows in normal flow below a
 * spacer, and reuses the drawn rows' elements by their place on screen (a
 * fling redraws text, it does not rebuild rows). It handles the keyboard as a
 * feature: one row is tabbable at a time (`renderRow` gets whether its row is
 * the one, for a roving tabindex), arrows, Page Up/Down, Home and End
 * move through the rows (scrolling a row into view before focusing it), and
 * Enter follows the focused link. `onNearEnd` asks for more rows before the
 * reader reaches the last one.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Bumped when `items` grew in place (the array is appended to, not copied). */
  version?: number;
  rowHeight: number;
  /** One row's content; its first link is what the keyboard focuses, tabbable only when `tabbable` (one tab stop for the list). */
  renderRow: (item: T, index: number, tabbable: boolean) => ComponentChildren;
  label: string;
  /** The size of the whole set when known (aria-setsize); -1 when not. */
  setSize?: number;
  onNearEnd?: () => void;
  /** How many rows before the end `onNearEnd` is called. */
  nearEnd?: number;
  id?: string;
}

const OVERSCAN = 8;

interface Range {
  start: number;
  end: number;
}

function visibleRange(list: HTMLElement, rowHeight: number, count: number): Range {
  const top = list.getBoundingClientRect().top;
  const first = Math.max(0, Math.floor(-top / rowHeight));
  const shown = Math.ceil(window.innerHeight / rowHeight);
  return { start: Math.max(0, first - OVERSCAN), end: Math.min(count, first + shown + OVERSCAN) };
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, renderRow, label, onNearEnd, nearEnd = 40 } = props;
  const listRef = useRef<HTMLUListElement>(null);
  const [range, setRange] = useState<Range>({ start: 0, end: Math.min(items.length, 40) });
  const [active, setActive] = useState(0);
  /** The row the keyboard moved to, until it is focused as drawn anew; by index, not by the render's `active`. */
  const focusWanted = useRef<number | null>(null);
  const frame = useRef(0);

  const measure = useCallback(() => {
    frame.current = 0;
    const list = listRef.current;
    if (!list) return;
    const next = visibleRange(list, rowHeight, items.length);
    setRange((r) => (r.start === next.start && r.end === next.end ? r : next));
    if (onNearEnd && next.end >= items.length - nearEnd) onNearEnd();
  }, [rowHeight, items, props.version, onNearEnd, nearEnd]);

  useEffect(() => {
    const schedule = () => (frame.current ||= requestAnimationFrame(measure));
    addEventListener('scroll', schedule, { passive: true });
    addEventListener('resize', schedule);
    return () => {
      removeEventListener('scroll', schedule);
      removeEventListener('resize', schedule);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [measure]);

  // New rows (a page arrived, or a new search) are measured before the browser paints them.
  useLayoutEffect(measure, [measure]);
  useEffect(() => setActive((a) => Math.min(a, Math.max(0, items.length - 1))), [items, props.version]);

  // An earlier render's effect may run after a later key press: it focuses the row wanted last, never its own `active`.
  useEffect(() => {
    const wanted = focusWanted.current;
    if (wanted === null) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-index="${wanted}"] a`);
    if (row) {
      focusWanted.current = null;
      row.focus({ preventScroll: true });
    }
  });

  function moveTo(index: number): void {
    const list = listRef.current;
    if (!list || items.length === 0) return;
    const target = Math.max(0, Math.min(items.length - 1, index));
    const rowTop = list.getBoundingClientRect().top + target * rowHeight;
    // Scroll only as far as needed to show the row whole, as a native list does.
    if (rowTop < 0) scrollBy(0, rowTop);
    else if (rowTop + rowHeight > window.innerHeight) scrollBy(0, rowTop + rowHeight - window.innerHeight);
    // Focus now when the row is drawn (the key press answers at once), and again once drawn anew: rows are reused by place.
    listRef.current?.querySelector<HTMLElement>(`[data-index="${target}"] a`)?.focus({ preventScroll: true });
    focusWanted.current = target;
    setActive(target);
    measure();
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(1, Math.floor(window.innerHeight / rowHeight) - 1);
    // Move from the row that has focus, not from `active`: keys pressed faster than a render would read a stale state.
    const focusedIndex = Number((event.target as HTMLElement).closest<HTMLElement>('[data-index]')?.dataset.index);
    const from = Number.isInteger(focusedIndex) ? focusedIndex : active;
    const moves: Record<string, number> = { ArrowDown: from + 1, ArrowUp: from - 1, PageDown: from + page, PageUp: from - page, Home: 0, End: items.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    moveTo(moves[event.key]!);
  }

  // A row focused by a click or by Tab becomes the active one.
  function onFocusIn(event: FocusEvent): void {
    const index = Number((event.target as HTMLElement).closest<HTMLElement>('[data-index]')?.dataset.index);
    if (Number.isInteger(index) && index !== active) setActive(index);
  }

  const start = Math.min(range.start, items.length);
  const end = Math.min(Math.max(range.end, start), items.length);
  const rows = [];
  for (let i = start; i < end; i++) {
    // Keyed by place on screen, not by paper: scrolling updates these elements instead of replacing them.
    rows.push(
      <li key={i - start} class={i === active ? 'vrow vrow-active' : 'vrow'} data-index={i} aria-posinset={i + 1} aria-setsize={props.setSize ?? -1} style={{ height: `${rowHeight}px` }}>
        {renderRow(items[i]!, i, i === active)}
      </li>,
    );
  }
  return (
    <ul
      ref={listRef}
      id={props.id}
      class="vlist"
      aria-label={label}
      onKeyDown={onKeyDown}
      onFocusIn={onFocusIn}
      style={{ paddingTop: `${start * rowHeight}px`, height: `${items.length * rowHeight}px` }}
    >
      {rows}
    </ul>
  );
}

/** Focus the active row of the list with this id (the first, until the keyboard moved): the search field's ArrowDown. */
export function focusActiveRow(listId: string): boolean {
  const list = document.getElementById(listId);
  const link = list?.querySelector<HTMLElement>('.vrow-active a') ?? list?.querySelector<HTMLElement>('[data-index] a');
  if (!link) return false;
  link.focus();
  return true;
}
