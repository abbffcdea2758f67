/**
 * Facets beside the results, as Datasette draws them: for sources, years,
 * categories and authors, the values among the matching papers with their
 * counts, each a link to the address with that value chosen (a click pushes a
 * history entry; the back button undoes it). Each facet applies every filter
 * but its own, so its counts say what choosing a value would give. When the
 * service counted over part of the matches (exact: false) the facet says so,
 * and its counts read as "at least".
 */
import type { Facet, FacetName, FacetsAnswer, FacetValue } from '../api/explorer.js';
import { count } from '../ui/format.js';
import { isYearWindow, stateHref, toggled, yearWindow, type ExploreState, type ListFilter } from './state.js';

const TITLES: Record<FacetName, string> = { sources: 'Sources', years: 'Years', categories: 'Categories', authors: 'Authors' };
const ORDER: FacetName[] = ['sources', 'years', 'categories', 'authors'];

interface Link {
  href: string;
  selected: boolean;
}

function linkFor(name: FacetName, value: FacetValue, state: ExploreState): Link | null {
  if (name === 'years') {
    if (!/^\d{4}$/.test(value.value)) return null; // undated papers: no date window selects them
    const selected = isYearWindow(state, value.value);
    return { href: stateHref(selected ? { ...state, from: '', to: '' } : { ...state, ...yearWindow(value.value) }), selected };
  }
  return { href: stateHref(toggled(state, name as ListFilter, value.value)), selected: value.selected };
}

function FacetBlock({ name, facet, state, label }: { name: FacetName; facet: Facet; state: ExploreState; label: (name: FacetName, v: FacetValue) => string }) {
  const headingId = `facet-${name}`;
  const atLeast = facet.exact ? '' : '≥ ';
  return (
    <section class="facet" aria-labelledby={headingId}>
      <h2 id={headingId} class="facet-title">
        {TITLES[name]}
        {facet.distinct_values > facet.values.length && name !== 'years' && <span class="facet-more"> top {facet.values.length} of {facet.distinct_values.toLocaleString()}</span>}
      </h2>
      {!facet.exact && (
        <p class="facet-approx">
          Approximate: counted over the {count(facet.counted_papers, 'most recently added matching paper')}; each count is at least this.
        </p>
      )}
      <ul class="facet-values">
        {facet.values.map((v) => {
          const link = linkFor(name, v, state);
          const text = label(name, v);
          const countText = `${atLeast}${v.count.toLocaleString()}`;
          return (
            <li key={v.value}>
              {link ? (
                <a href={link.href} class={link.selected ? 'facet-value selected' : 'facet-value'} aria-current={link.selected ? 'true' : undefined}>
                  <span class="facet-check" aria-hidden="true">
                    {link.selected ? '✓' : ''}
                  </span>
                  <span class="facet-label">{text}</span>
                  <span class="facet-count">
                    {countText}
                    <span class="visually-hidden">
                      {v.count === 1 ? ' paper' : ' papers'}
                      {link.selected ? ', chosen: choose again to remove' : ''}
                    </span>
                  </span>
                </a>
              ) : (
                <span class="facet-value inert">
                  <span class="facet-check" aria-hidden="true" />
                  <span class="facet-label">{text}</span>
                  <span class="facet-count">{countText}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Facets({ answer, state, sourceName }: { answer: FacetsAnswer; state: ExploreState; sourceName: (id: string) => string }) {
  const label = (name: FacetName, v: FacetValue) =>
    name === 'sources' ? sourceName(v.value) : name === 'years' ? (v.value === 'undated' ? 'Undated' : v.value) : (v.label ?? v.value);
  return (
    <div class="facets">
      {ORDER.filter((name) => answer.facets[name].values.length > 0).map((name) => (
        <FacetBlock key={name} name={name} facet={answer.facets[name]} state={state} label={label} />
      ))}
    </div>
  );
}
