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
  explore: { pattern: '/explore', load: () => import('./pages/explore.js'), nav: { label: 'Explore', group: 'corpus' }, title: 'Explore' },
  paper: { pattern: '/papers/:id', load: () => import('./pages/paper.js'), section: 'explore', title: 'Paper' },
  watchdog: { pattern: '/watchdog', load: () => import('./pages/watchdog.js'), nav: { label: 'Watchdog', group: 'collect' }, title: 'Watchdog' },
  queue: { pattern: '/queue', load: () => import('./pages/queue.js'), nav: { label: 'Reading queue', group: 'corpus' }, title: 'Reading queue' },
  analytics: { pattern: '/analytics', load: () => import('./pages/analytics.js'), nav: { label: 'Analytics', group: 'corpus' }, title: 'Analytics' },
  library: { pattern: '/library', load: () => import('./pages/library.js'), nav: { label: 'Files', group: 'library' }, title: 'Library' },
  evidence: { pattern: '/evidence', load: () => import('./pages/evidence.js'), nav: { label: 'Evidence projects', group: 'library' }, title: 'Evidence projects' },
  'evidence-project': { pattern: '/evidence/:project', load: () => import('./pages/evidence-project.js'), section: 'evidence', title: 'Evidence project' },
  admin: { pattern: '/admin', load: () => import('./pages/admin.js'), nav: { label: 'Administration', group: 'setup' }, title: 'Administration' },
  routines: { pattern: '/routines', load: () => import('./pages/routines.js'), nav: { label: 'Routines', group: 'collect' }, title: 'Routines' },
  routineNew: { pattern: '/routines/new', load: () => import('./pages/routine-edit.js'), section: 'routines', title: 'New routine' },
  routineEdit: { pattern: '/routines/:id/edit', load: () => import('./pages/routine-edit.js'), section: 'routines', title: 'Edit routine' },
  routine: { pattern: '/routines/:id', load: () => import('./pages/routine.js'), section: 'routines', title: 'Routine' },
  review: { pattern: '/review', load: () => import('./pages/review.js'), nav: { label: 'Review', group: 'collect' }, title: 'Review' },
  'routine-delivery': { pattern: '/routines/:id/delivery', load: () => import('./pages/routine-delivery.js'), section: 'routines', title: 'Deliveries' },
  profiles: { pattern: '/profiles', load: () => import('./pages/profiles.js'), nav: { label: 'People followed', group: 'collect' }, title: 'People followed' },
  profile: { pattern: '/profiles/:id', load: () => import('./pages/profile.js'), section: 'profiles', title: 'Person followed' },
  sources: { pattern: '/sources', load: () => import('./pages/sources.js'), nav: { label: 'Sources and keys', group: 'setup' }, title: 'Sources and keys' },
  'evidence-answers': { pattern: '/evidence/:project/answers', load: () => import('./pages/answers.js'), section: 'evidence', title: 'Selected answers' },
  assistant: { pattern: '/assistant', load: () => import('./pages/assistant.js'), nav: { label: 'Assistant', group: 'library' }, title: 'Assistant' },
  reader: { pattern: '/evidence/:project/files/:file', load: () => import('./pages/reader.js'), section: 'evidence', title: 'Reader' },
  settings: { pattern: '/settings', load: () => import('./pages/settings.js'), nav: { label: 'Settings', group: 'setup' }, title: 'Settings' },
};

export const NAV_GROUPS: { id: NonNullable<RouteDef['nav']>['group']; label: string }[] = [
  { id: 'collect', label: 'Collect' },
  { id: 'corpus', label: 'Corpus' },
  { id: 'library', label: 'Library' },
  { id: 'setup', label: 'Set-up' },
];
