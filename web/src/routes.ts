/**
 * Every view of the window: its URL pattern, its page module (loaded on first
 * visit, so `/` loads only what it shows) and its place in the navigation.
 * Parts 2 and 3 of the window add their pages here and nowhere else.
 */
import type { FunctionComponent } from 'preact';

export interface PageProps {
  params: Record<string, string>;
}

export type PageModule = { default: FunctionComponent<PageProps> };

export interface RouteDef {
  pattern: string;
  load: () => Promise<PageModule>;
  /** The navigation entry for this view; routes without one are reached from other pages. */
  nav?: { label: string; group: 'collect' | 'corpus' | 'setup' | 'library' };
  /** The navigation entry a view without its own belongs under (a run's page under Runs). */
  section?: string;
  title: string;
}

export const ROUTES: Record<string, RouteDef> = {
  home: { pattern: '/', load: () => import('./pages/home.js'), nav: { label: 'Home', group: 'collect' }, title: 'Home' },
  search: { pattern: '/search', load: () => import('./pages/search.js'), nav: { label: 'Search', group: 'collect' }, title: 'Search' },
  runs: { pattern: '/runs', load: () => import('./pages/runs.js'), nav: { label: 'Runs', group: 'collect' }, title: 'Runs' },
  run: { pattern: '/runs/:id', load: () => import('./pages/run.js'), section: 'runs', title: 'Run' },
  library: { pattern: '/library', load: () => import('./pages/library.js'), nav: { label: 'Files', group: 'library' }, title: 'Library' },
  evidence: { pattern: '/evidence', load: () => import('./pages/evidence.js'), nav: { label: 'Evidence projects', group: 'library' }, title: 'Evidence projects' },
  'evidence-project': { pattern: '/evidence/:project', load: () => import('./pages/evidence-project.js'), section: 'evidence', title: 'Evidence project' },
  admin: { pattern: '/admin', load: () => import('./pages/admin.js'), nav: { label: 'Administration', group: 'setup' }, title: 'Administration' },
};

export const NAV_GROUPS: { id: NonNullable<RouteDef['nav']>['group']; label: string }[] = [
  { id: 'collect', label: 'Collect' },
  { id: 'corpus', label: 'Corpus' },
  { id: 'library', label: 'Library' },
  { id: 'setup', label: 'Set-up' },
];
