/** The filters in force, each a link that removes it, and one that clears them all. */
import type { FacetsAnswer } from '../api/explorer.js';
import { stateHref, toggled, type ExploreState, type ListFilter } from './state.js';

const KIND: Record<ListFilter, string> = { authors: 'Author', categories: 'Category', sources: 'Source' };

export function ActiveFilters({ state, facets, sourceName }: { state: ExploreState; facets: FacetsAnswer | undefined; sourceName: (id: string) => string }) {
  const chips: { key: string; text: string; href: string }[] = [];
  for (const filter of ['sources', 'categories', 'authors'] as ListFilter[]) {
    for (const value of state[filter]) {
      const label = filter === 'sources' ? sourceName(value) : filter === 'authors' ? (facets?.facets.authors.values.find((v) => v.value === value)?.label ?? value) : value;
      chips.push({ key: `${filter}:${value}`, text: `${KIND[filter]}: ${label}`, href: stateHref(toggled(state, filter, value)) });
    }
  }
  if (state.from || state.to) chips.push({ key: 'dates', text: `Published ${state.from || '…'} to ${state.to || '…'}`, href: stateHref({ ...state, from: '', to: '' }) });
  if (chips.length === 0) return null;
  return (
    <ul class="active-filters" aria-label="Filters in force">
      {chips.map((c) => (
        <li key={c.key}>
          <a class="chip chip-filter" href={c.href} aria-label={`Remove ${c.text}`}>
            {c.text}
            <span aria-hidden="true"> ×</span>
          </a>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <a class="clear-filters" href={stateHref({ ...state, authors: [], categories: [], sources: [], from: '', to: '' })}>
            Clear filters
          </a>
        </li>
      )}
    </ul>
  );
}
