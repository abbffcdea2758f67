/**
 * The explorer's query and its settings: the words (typing replaces the
 * address after a pause, so the back button is not a list of keystrokes),
 * keyword or semantic mode, the order, the publication window and an author.
 * Choices push a history entry; each refusal of the service is shown beside
 * the field its `loc` names.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { itemsFor } from '../api/errors.js';
import { navigate } from '../router.js';
import { FieldError } from '../ui/notes.js';
import { focusActiveRow } from '../ui/virtual-list.js';
import { stateHref, toggled, type ExploreState } from './state.js';

const TYPING_PAUSE_MS = 300;

const messages = (error: unknown, field: string) => itemsFor(error, field).map((i) => i.msg.replace(/\.?$/, '.'));

function Described({ id, error, field }: { id: string; error: unknown; field: string }) {
  return <FieldError id={id} messages={messages(error, field)} />;
}

const invalid = (error: unknown, field: string) => messages(error, field).length > 0;

export function SearchForm({ state, error, resultsId }: { state: ExploreState; error: unknown; resultsId: string }) {
  const [words, setWords] = useState(state.q);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The address changed from elsewhere (back button, a link): the field follows it.
  useEffect(() => setWords(state.q), [state.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (next: ExploreState, replace = false) => navigate(stateHref(next), { replace });

  function onInput(value: string) {
    setWords(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => go({ ...state, q: value }, true), TYPING_PAUSE_MS);
  }

  function onSubmit(event: Event) {
    event.preventDefault();
    clearTimeout(timer.current);
    go({ ...state, q: words }, true);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' && focusActiveRow(resultsId)) event.preventDefault();
  }

  const queryInvalid = invalid(error, 'query');
  return (
    <div class="explore-form">
      <form role="search" class="explore-search" onSubmit={onSubmit}>
        <label for="explore-q" class="visually-hidden">
          Search the corpus
        </label>
        <input
          id="explore-q"
          type="search"
          data-search-field
          value={words}
          onInput={(e) => onInput((e.target as HTMLInputElement).value)}
          onKeyDown={onKeyDown}
          placeholder="Search titles, abstracts and authors"
          autocomplete="off"
          spellcheck={false}
          aria-invalid={queryInvalid}
          aria-describedby={queryInvalid ? 'explore-q-error' : 'explore-q-hint'}
        />
        <button type="submit">Search</button>
        <p class="field-hint" id="explore-q-hint">
          <kbd>/</kbd> to search · <code>"a phrase"</code> · <code>prefix*</code> · <code>-exclude</code> · <kbd>↓</kbd> to the results
        </p>
        <Described id="explore-q-error" error={error} field="query" />
      </form>
      <div class="explore-options">
        <fieldset class="segmented" aria-describedby={invalid(error, 'mode') ? 'explore-mode-error' : undefined}>
          <legend>Match</legend>
          {[
            ['keyword', 'Words'],
            ['semantic', 'Meaning'],
          ].map(([value, label]) => (
            <label key={value}>
              <input type="radio" name="mode" value={value} checked={(state.mode || 'keyword') === value} onChange={() => go({ ...state, mode: value!, exhaustive: false })} />
              <span>{label}</span>
            </label>
          ))}
          <Described id="explore-mode-error" error={error} field="mode" />
        </fieldset>
        <div class="field-inline">
          <label for="explore-sort">Order</label>
          <select
            id="explore-sort"
            value={state.sort || 'newest'}
            onChange={(e) => go({ ...state, sort: (e.target as HTMLSelectElement).value, exhaustive: false })}
            aria-invalid={invalid(error, 'sort')}
            aria-describedby={invalid(error, 'sort') ? 'explore-sort-error' : undefined}
          >
            <option value="newest">Newest first</option>
            <option value="relevance">Most relevant first</option>
          </select>
          <Described id="explore-sort-error" error={error} field="sort" />
        </div>
        <div class="field-inline">
          <label for="explore-from">Published from</label>
          <input
            id="explore-from"
            type="date"
            value={state.from}
            onChange={(e) => go({ ...state, from: (e.target as HTMLInputElement).value }, true)}
            aria-invalid={invalid(error, 'date_from')}
            aria-describedby={invalid(error, 'date_from') ? 'explore-from-error' : undefined}
          />
          <label for="explore-to">to</label>
          <input
            id="explore-to"
            type="date"
            value={state.to}
            onChange={(e) => go({ ...state, to: (e.target as HTMLInputElement).value }, true)}
            aria-invalid={invalid(error, 'date_to')}
            aria-describedby={invalid(error, 'date_to') ? 'explore-to-error' : undefined}
          />
          <Described id="explore-from-error" error={error} field="date_from" />
          <Described id="explore-to-error" error={error} field="date_to" />
        </div>
        <AuthorField state={state} error={error} />
      </div>
    </div>
  );
}

/** An author the facets do not list can be typed in. */
function AuthorField({ state, error }: { state: ExploreState; error: unknown }) {
  const [name, setName] = useState('');
  const bad = invalid(error, 'authors');
  function add(event: Event) {
    event.preventDefault();
    const value = name.trim();
    if (!value || state.authors.includes(value)) return;
    setName('');
    navigate(stateHref(toggled(state, 'authors', value)));
  }
  return (
    <form class="field-inline" onSubmit={add}>
      <label for="explore-author">Author</label>
      <input
        id="explore-author"
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
        placeholder="Name as published"
        aria-invalid={bad}
        aria-describedby={bad ? 'explore-author-error' : undefined}
      />
      <button type="submit" class="quiet" disabled={!name.trim()}>
        Add
      </button>
      <Described id="explore-author-error" error={error} field="authors" />
    </form>
  );
}
