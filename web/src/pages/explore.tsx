/**
 * The explorer: the whole corpus searched, filtered and faceted, with the
 * address as its state (/explore?q=…&source=…; reloading or sharing it within
 * the session shows the same papers). Results are an infinite list paged by
 * the service's cursor and drawn virtually; facets sit beside them; every
 * matching paper can be exported.
 */
import { useMemo } from 'preact/hooks';
import { explorer } from '../api/explorer.js';
import { ActiveFilters } from '../explore/active-filters.js';
import { AnswerNotes } from '../explore/answer-notes.js';
import { ExportMenu } from '../explore/export-menu.js';
import { Facets } from '../explore/facets.js';
import { ResultRow, ROW_HEIGHT } from '../explore/result-row.js';
import { SearchForm } from '../explore/search-form.js';
import { filtersOf, hasFilters, lastExplore, readState, searchOptionsOf } from '../explore/state.js';
import { PAGE_SIZE, useResults } from '../explore/use-results.js';
import { ApiError } from '../api/errors.js';
import { place } from '../router.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { useSourceNames } from '../ui/use-source-names.js';
import { VirtualList } from '../ui/virtual-list.js';

const RESULTS_ID = 'explore-results';

/** A refusal whose items all sit beside a field of the form needs no second note above the results. */
const shownByFields = (error: unknown) =>
  error instanceof ApiError && error.items.length > 0 && error.items.every((i) => ['query', 'mode', 'sort', 'date_from', 'date_to', 'authors'].includes(String(i.loc[1])));

export default function Explore() {
  const search = place.value.query.toString();
  const state = useMemo(() => readState(new URLSearchParams(search)), [search]);
  lastExplore.value = search ? `/explore?${search}` : '/explore';
  const filters = useMemo(() => filtersOf(state), [state]);
  const options = useMemo(() => searchOptionsOf(state), [state]);
  const filtersKey = JSON.stringify(filters);
  const results = useResults(filters, options);
  const facets = useResource((signal) => explorer.facets(filters, undefined, signal), [filtersKey]);
  const sourceName = useSourceNames();
  const total = facets.data?.total;
  const error = results.error ?? facets.error;

  // The same element while the counts, the address and the names stay: pages of results arriving do not draw the facets again.
  const facetsView = useMemo(
    () => (facets.data ? <Facets answer={facets.data} state={state} sourceName={sourceName} /> : facets.loading && <Busy label="Counting…" />),
    [facets.data, facets.loading, state, sourceName],
  );

  let list;
  if (results.rows.length > 0) {
    list = (
      <VirtualList
        id={RESULTS_ID}
        items={results.rows}
        version={results.version}
        rowHeight={ROW_HEIGHT}
        label="Papers"
        setSize={total ?? -1}
        onNearEnd={results.more ? results.loadMore : undefined}
        nearEnd={PAGE_SIZE}
        renderRow={(paper, _index, tabbable) => <ResultRow paper={paper} sourceName={sourceName} tabbable={tabbable} />}
      />
    );
  } else if (results.loading) {
    list = <Busy label="Searching the corpus…" />;
  } else if (!results.error) {
    list = hasFilters(state) ? (
      <EmptyState title="No paper matches these filters.">
        <p>Remove a filter above, try other words, or <a href="/explore">see the whole corpus</a>.</p>
      </EmptyState>
    ) : (
      <EmptyState title="The corpus is empty.">
        <p>
          Papers arrive with every search: <a href="/search">start a dive</a> and they will be listed here.
        </p>
      </EmptyState>
    );
  }

  return (
    <div class="explore">
      <header class="page-header explore-header">
        <h1>Explore the corpus</h1>
        <SearchForm state={state} error={error} resultsId={RESULTS_ID} />
      </header>
      <div class="explore-body">
        <aside class="explore-facets" aria-label="Facets">
          {facetsView}
        </aside>
        <section class="explore-results" aria-labelledby="results-heading">
          <div class="results-bar">
            <h2 id="results-heading" class="results-count" aria-live="polite">
              {total === undefined ? 'Papers' : total === 0 ? 'No papers' : `${count(total, 'paper')}${hasFilters(state) ? ' match' : ' in the corpus'}`}
            </h2>
            <ExportMenu filters={filters} total={total} />
          </div>
          <ActiveFilters state={state} facets={facets.data} sourceName={sourceName} />
          {!shownByFields(error) && <ErrorNote error={error} title="svc refused this search." />}
          {results.error && results.rows.length > 0 && (
            <button type="button" class="quiet" onClick={results.retry}>
              Try the next page again
            </button>
          )}
          {results.first && <AnswerNotes answer={results.first} state={state} />}
          {list}
          {results.loading && results.rows.length > 0 && <Busy label="Loading more papers…" />}
          {!results.more && results.rows.length > 0 && !results.loading && (
            <p class="list-end muted">{results.rows.length === total ? `All ${count(total, 'paper')} shown.` : `End of the list: ${count(results.rows.length, 'paper')}.`}</p>
          )}
        </section>
      </div>
    </div>
  );
}
