/**
 * History routing on the renderer origin: every view is a real URL that can be
 * reloaded, bookmarked within the session's tab and opened in a new tab. The
 * location is a signal; pages read their parameters from it and write them
 * back with `navigate` (list filters repeat their parameter: ?author=a&author=b).
 */
import { computed, signal } from '@preact/signals';

export interface Place {
  path: string;
  query: URLSearchParams;
}

const read = (): Place => ({ path: location.pathname, query: new URLSearchParams(location.search) });

export const place = signal<Place>(read());
addEventListener('popstate', () => (place.value = read()));

/** Go to `to` (a path with its query); `replace` keeps the history entry (filters typed into a page). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, location.origin);
  if (url.origin !== location.origin) throw new Error(`navigate: ${to} is not on this origin`);
  const target = url.pathname + url.search;
  if (target === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  place.value = read();
  if (!options.replace) scrollTo(0, 0);
}

/** A URL for `path` with `params` (arrays repeat their key; empty values are left out). */
export function href(path: string, params: Record<string, string | number | boolean | null | undefined | (string | number)[]> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export interface RouteMatch<K extends string = string> {
  name: K;
  params: Record<string, string>;
}

/** Match `path` against patterns such as "/runs/:id"; the first that fits wins. */
export function matchRoute<K extends string>(patterns: Record<K, string>, path: string): RouteMatch<K> | null {
  for (const [name, pattern] of Object.entries(patterns) as [K, string][]) {
    const keys: string[] = [];
    const source = pattern.replace(/:([a-z_]+)/g, (_m, key: string) => {
      keys.push(key);
      return '([^/]+)';
    });
    const match = new RegExp(`^${source}/?$`).exec(path);
    if (match) return { name, params: Object.fromEntries(keys.map((k, i) => [k, decodeURIComponent(match[i + 1]!)])) };
  }
  return null;
}

/** Follow a click on a same-origin link inside the app without reloading the page. */
export function followLink(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
  if (anchor.getAttribute('href')?.startsWith('#')) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}

export const queryParam = (name: string) => computed(() => place.value.query.get(name) ?? '');

/** Set one parameter of the current address (an empty value removes it), keeping the others: a page's choices typed into its controls. */
export function replaceParam(name: string, value: string): void {
  const query = Object.fromEntries([...place.value.query].filter(([k]) => k !== name));
  navigate(href(place.value.path, { ...query, [name]: value || undefined }), { replace: true });
}
