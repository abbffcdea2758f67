/**
 * The repository catalog as the API and CLI show it: static facts per source
 * (never a secret), and what can be searched right now with the keys stored.
 */
import type { Context } from '../context.js';
import { CATALOG, findSource } from './index.js';
import type { CatalogEntry } from './types.js';
import { windowRefusal } from './window-rule.js';
import type { Catalog, Repository, SearchRepositories, SearchRepository } from '../wire/sources.js';

export function catalogEntry(entry: CatalogEntry): Repository {
  if (entry.status === 'retired') {
    return { id: entry.id, name: entry.name, homepage: entry.homepage, description: entry.description, status: 'retired', retired_on: entry.retiredOn, needs_key: false, credential: null, capabilities: null };
  }
  const c = entry.capabilities;
  return {
    id: entry.id,
    name: entry.name,
    homepage: entry.homepage,
    description: entry.description,
    status: 'active',
    needs_key: c.credential?.required ?? false,
    credential: c.credential ? { name: c.credential.name, required: c.credential.required } : null,
    capabilities: {
      keyword_query: c.keywordQuery,
      date_window: c.dateWindow,
      author_search: c.authorSearch,
      orcid_search: c.orcidSearch ?? false,
      page_size: c.pageSize,
      paging: c.paging,
      rate_limit: { requests: c.rateLimit.requests, interval_ms: c.rateLimit.intervalMs },
      rate_limit_with_key: c.rateLimitWithKey ? { requests: c.rateLimitWithKey.requests, interval_ms: c.rateLimitWithKey.intervalMs } : null,
      scan_limit_pages: c.scanLimitPages ?? null,
    },
  };
}

export function readCatalog(): Catalog {
  return { repositories: CATALOG.map(catalogEntry) };
}

/**
 * What can be searched now, and for each source that cannot, why (key missing, retired). Given the
 * date window a run would ask (`windowGiven`: a from or a to date), a source that cannot answer with
 * it (or without one) is not searchable either, in the words the run would record.
 */
export function searchableRepositories(ctx: Context, options: { windowGiven?: boolean } = {}): SearchRepositories {
  const statuses = new Map(ctx.credentials.statuses().map((c) => [c.name, c.status]));
  const repositories = CATALOG.map((entry): SearchRepository => {
    if (entry.status === 'retired') return { id: entry.id, name: entry.name, searchable: false, reason: 'retired', message: `${entry.name} was retired on ${entry.retiredOn}.`, key_status: null };
    const credential = entry.capabilities.credential;
    const keyStatus = credential ? (statuses.get(credential.name) ?? 'absent') : null;
    if (credential?.required && keyStatus !== 'present') {
      const message = keyStatus === 'unreadable' ? `The ${credential.name} credential cannot be read.` : `Needs the ${credential.name} credential: svc credentials set ${credential.name}`;
      return { id: entry.id, name: entry.name, searchable: false, reason: 'missing_key', message, key_status: keyStatus };
    }
    if (entry.capabilities.orcidOnly) {
      return { id: entry.id, name: entry.name, searchable: false, reason: 'entity_unsupported', message: `${entry.name} answers only for an ORCID iD: routines that follow a watch profile with one ask it.`, key_status: keyStatus };
    }
    const windowProblem = options.windowGiven === undefined ? null : windowRefusal(entry.name, entry.capabilities.dateWindow, options.windowGiven);
    if (windowProblem) return { id: entry.id, name: entry.name, searchable: false, reason: 'window_unanswerable', message: windowProblem, key_status: keyStatus };
    return { id: entry.id, name: entry.name, searchable: true, reason: null, message: null, key_status: keyStatus };
  });
  return { repositories, searchable: repositories.filter((r) => r.searchable).map((r) => r.id) };
}

/**
 * The sources among `ids` that answer only for a date interval (bioRxiv, medRxiv): a run
 * that asks them with neither a from nor a to date records window_unanswerable for them.
 * @example sourcesNeedingDates(['biorxiv', 'crossref']) // [{ id: 'biorxiv', name: 'bioRxiv' }]
 */
export function sourcesNeedingDates(ids: readonly string[]): { id: string; name: string }[] {
  return ids.flatMap((id) => {
    const entry = findSource(id);
    return entry?.status === 'active' && entry.capabilities.dateWindow === 'required' ? [{ id: entry.id, name: entry.name }] : [];
  });
}
