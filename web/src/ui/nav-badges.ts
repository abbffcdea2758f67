/**
 * Badges beside navigation entries: a count some page or watcher keeps
 * (reports awaiting review beside Review). Any module sets one by route
 * name; the frame's navigation draws it with its words for screen readers.
 */
import { signal } from '@preact/signals';

export interface NavBadge {
  count: number;
  /** What the count is, for a screen reader: "3 reports awaiting review". */
  label: string;
}

export const navBadges = signal<Record<string, NavBadge>>({});

/** Show `count` beside the navigation entry of route `name`; zero hides it. */
export function setNavBadge(name: string, count: number, label: string): void {
  const next = { ...navBadges.value };
  if (count > 0) next[name] = { count, label };
  else delete next[name];
  navBadges.value = next;
}
