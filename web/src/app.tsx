/**
 * The window's frame: navigation, the backend's state, and the page the
 * address names. Pages are loaded on first visit; a page that fails to load
 * says so in words. `/` anywhere focuses the page's search field.
 */
import { signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { matchRoute, place } from './router.js';
import { openInNewTab } from './session.js';
import { NAV_GROUPS, ROUTES, type PageModule } from './routes.js';
import { BackendBanner } from './ui/backend-banner.js';
import { RestoreBanner } from './ui/restore-banner.js';
import { navBadges } from './ui/nav-badges.js';
import { startWatcher } from './watch/watcher.js';
import { Busy, EmptyState, ErrorNote } from './ui/notes.js';

const loaded = new Map<string, PageModule>();
const loadErrors = signal<Record<string, unknown>>({});
const loadTick = signal(0);

function pageModule(name: string): PageModule | undefined {
  const module = loaded.get(name);
  if (module) return module;
  ROUTES[name]!.load().then(
    (m) => {
      loaded.set(name, m);
      loadTick.value++;
    },
    (err) => (loadErrors.value = { ...loadErrors.value, [name]: err }),
  );
  return undefined;
}

const patterns = Object.fromEntries(Object.entries(ROUTES).map(([name, r]) => [name, r.pattern]));

function Nav({ current }: { current: string | null }) {
  return (
    <nav class="nav" aria-label="svc">
      <a class="brand" href="/">
        svc
      </a>
      {NAV_GROUPS.map((group) => {
        const entries = Object.entries(ROUTES).filter(([, r]) => r.nav?.group === group.id);
        if (entries.length === 0) return null;
        return (
          <div class="nav-group" key={group.id}>
            <p class="nav-group-label">{group.label}</p>
            <ul>
              {entries.map(([name, r]) => (
                <li key={name}>
                  <a href={r.pattern} aria-current={current === name ? 'page' : current && ROUTES[current]?.section === name ? 'location' : undefined}>
                    {r.nav!.label}
                    <NavBadgeOf name={name} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <NewTab />
    </nav>
  );
}

/** A count beside a navigation entry (ui/nav-badges.ts), with its words for a screen reader. */
function NavBadgeOf({ name }: { name: string }) {
  const badge = navBadges.value[name];
  if (!badge) return null;
  return (
    <span class="nav-badge" title={badge.label}>
      <span aria-hidden="true">{badge.count > 99 ? '99+' : badge.count}</span>
      <span class="visually-hidden">, {badge.label}</span>
    </span>
  );
}

/** A second tab of the window: it gets its own one-time launch code from the shell, never this tab's token. */
function NewTab() {
  const failed = useSignal<unknown>(null);
  return (
    <div class="nav-foot">
      <button type="button" class="quiet" onClick={() => openInNewTab(location.pathname + location.search).catch((err) => (failed.value = err))}>
        Open in new tab
      </button>
      <ErrorNote error={failed.value} />
    </div>
  );
}

function focusSearchOnSlash(event: KeyboardEvent): void {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  const field = document.querySelector<HTMLInputElement>('[data-search-field]');
  if (!field) return;
  event.preventDefault();
  field.focus();
  field.select();
}

export function App() {
  void loadTick.value; // a page module arriving draws again
  const match = matchRoute(patterns, place.value.path);
  const route = match ? ROUTES[match.name]! : null;
  useEffect(startWatcher, []);
  useEffect(() => {
    addEventListener('keydown', focusSearchOnSlash);
    return () => removeEventListener('keydown', focusSearchOnSlash);
  }, []);
  useEffect(() => {
    document.title = route ? `${route.title} · svc` : 'Not found · svc';
  }, [route]);
  let body;
  if (!match) {
    body = (
      <EmptyState title="There is no such page in svc's window.">
        <p>
          <a href="/">Go to the start page</a>.
        </p>
      </EmptyState>
    );
  } else if (loadErrors.value[match.name]) {
    body = <ErrorNote title="This page could not be loaded." error={loadErrors.value[match.name]} />;
  } else {
    const module = pageModule(match.name);
    body = module ? <module.default params={match.params} /> : <Busy />;
  }
  return (
    <div class="frame">
      <Nav current={match?.name ?? null} />
      <div class="main-column">
        <BackendBanner />
        <RestoreBanner />
        <main id="main" class="page" tabIndex={-1}>
          {body}
        </main>
      </div>
    </div>
  );
}
