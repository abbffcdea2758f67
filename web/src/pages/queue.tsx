/**
 * The reading queue as a board: one column per status the service has (its
 * counts name them), newest saved first. Each paper opens its page; a button
 * per other status moves it there (no dragging needed), Remove takes it off
 * the queue (the paper stays in the corpus) with a way back. The filter (`/`)
 * keeps the papers whose title or authors hold every word, as the service
 * matches them; ↓/↑ move within a column, ←/→ across, Enter opens.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { itemsFor } from '../api/errors.js';
import { readingQueue, type QueueEntry } from '../api/queue.js';
import { Column, type FocusWish } from '../queue/column.js';
import { moveAcrossColumns } from '../queue/keys.js';
import { columnName } from '../queue/words.js';
import { place, replaceParam } from '../router.js';
import { Busy, EmptyState, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const TYPING_MS = 250;

function Filter({ query, errors }: { query: string; errors: string[] }) {
  const [typed, setTyped] = useState(query);
  useEffect(() => setTyped(query), [query]);
  useEffect(() => {
    if (typed.trim() === query) return;
    const timer = setTimeout(() => replaceParam('q', typed.trim()), TYPING_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <form class="queue-filter" role="search" onSubmit={(e) => (e.preventDefault(), replaceParam('q', typed.trim()))}>
      <label for="queue-q">Filter saved papers</label>
      <input
        id="queue-q"
        type="search"
        data-search-field
        value={typed}
        placeholder="Words of a title or an author"
        onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length ? 'queue-q-error' : 'queue-q-hint'}
      />
      <p class="field-hint" id="queue-q-hint">
        Press <kbd>/</kbd> to filter; ↑ ↓ ← → move between papers, Enter opens one.
      </p>
      <FieldError id="queue-q-error" messages={errors} />
    </form>
  );
}

export default function Queue() {
  const query = place.value.query.get('q') ?? '';
  const [generation, setGeneration] = useState(0);
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [said, setSaid] = useState<{ text: string; undo?: QueueEntry } | null>(null);
  const focus = useRef<FocusWish | null>(null);
  // The statuses (and whether anything is saved at all) come from the service's counts.
  const overview = useResource((signal) => readingQueue.page({ q: query || undefined, limit: 1 }, signal), [query, generation]);
  const data = overview.data;
  const statuses = data ? Object.keys(data.counts) : [];
  const saved = data ? Object.values(data.counts).reduce((a, b) => a + b, 0) : 0;
  const matching = data ? Object.values(data.matching).reduce((a, b) => a + b, 0) : 0;
  const queryErrors = itemsFor(overview.error, 'q').map((i) => i.msg);

  async function act(entry: QueueEntry, index: number, run: () => Promise<unknown>, text: string, undo?: QueueEntry) {
    setBusy(entry.document_id);
    setFailure(null);
    try {
      await run();
      focus.current = { status: entry.status, index };
      setSaid({ text, undo });
      setGeneration((g) => g + 1);
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(null);
    }
  }
  const title = (entry: QueueEntry) => `“${entry.paper?.title ?? `Paper ${entry.document_id}`}”`;
  const move = (entry: QueueEntry, to: string, index: number) => act(entry, index, () => readingQueue.move(entry.document_id, to), `Moved ${title(entry)} to ${columnName(to)}.`);
  const remove = (entry: QueueEntry, index: number) =>
    act(entry, index, () => readingQueue.remove(entry.document_id), `Removed ${title(entry)} from the queue; the paper stays in the corpus.`, entry);
  async function undo(entry: QueueEntry) {
    setFailure(null);
    try {
      const again = await readingQueue.save(entry.document_id);
      if (again.status !== entry.status) await readingQueue.move(entry.document_id, entry.status);
      setSaid({ text: `Saved ${title(entry)} again, in ${columnName(entry.status)}.` });
      setGeneration((g) => g + 1);
    } catch (err) {
      setFailure(err);
    }
  }

  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Reading queue</h1>
          <p class="lede">Papers you saved to read, by status. Open one for its abstract and why it is here; move it along once read.</p>
        </div>
        {(saved > 0 || query) && <Filter query={query} errors={queryErrors} />}
      </header>
      <div class="status-line" role="status">
        {said && (
          <>
            {said.text}{' '}
            {said.undo && (
              <button type="button" class="quiet small" onClick={() => undo(said.undo!)}>
                Undo
              </button>
            )}
          </>
        )}
      </div>
      <ErrorNote error={failure} title="svc did not change the queue." />
      {queryErrors.length === 0 && <ErrorNote error={overview.error} title="svc could not read the reading queue." />}
      {!data && overview.loading && <Busy />}
      {data && saved === 0 && (
        <EmptyState title="Your reading queue is empty.">
          <p>
            Save a paper to read later from the <a href="/explore">explorer</a> or from a paper's page, or with{' '}
            <code>svc queue add ID</code>. It appears here, and you move it along once read.
          </p>
        </EmptyState>
      )}
      {data && saved > 0 && query && matching === 0 && (
        <EmptyState title={`No saved paper matches “${query}”.`}>
          <p>
            The filter keeps papers whose title or authors hold every word. <a href="/queue">Show the whole queue</a>.
          </p>
        </EmptyState>
      )}
      {data && saved > 0 && (!query || matching > 0) && (
        <div class="board" onKeyDown={moveAcrossColumns}>
          {statuses.map((status) => (
            <Column key={status} status={status} statuses={statuses} query={query} generation={generation} busy={busy} focus={focus} onMove={move} onRemove={remove} />
          ))}
        </div>
      )}
    </>
  );
}
