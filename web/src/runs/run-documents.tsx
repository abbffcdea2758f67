/**
 * The papers a run found, in corpus order (newest publication first), a page
 * at a time: each opens its paper page; which sources found it in this run,
 * and whether it was new to the corpus. ↓/↑ move through them, Enter opens.
 */
import { useEffect, useState } from 'preact/hooks';
import { runs, type RunDocument } from '../api/executions.js';
import { count } from '../ui/format.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';

const PAGE = 50;

function authorLine(doc: RunDocument): string {
  const names = doc.authors.map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(' ')).filter(Boolean);
  if (names.length === 0) return '';
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

function Paper({ doc }: { doc: RunDocument }) {
  const authors = authorLine(doc);
  return (
    <li class="paper">
      <a class="paper-title" href={`/papers/${doc.id}`} data-row-link>
        {doc.title}
      </a>
      <p class="paper-meta">
        {authors && <span>{authors}</span>}
        {doc.year && <span>{doc.year}</span>}
        {doc.venue && <span class="paper-venue">{doc.venue}</span>}
      </p>
      <p class="paper-tags">
        {doc.is_new && <span class="chip chip-ok">new to the corpus</span>}
        {doc.is_retracted && <span class="chip chip-danger">retracted</span>}
        <span class="muted">found by {doc.found_by.join(', ')}</span>
        {doc.doi && <span class="paper-id">doi:{doc.doi}</span>}
        {doc.arxiv_id && <span class="paper-id">arXiv:{doc.arxiv_id}</span>}
      </p>
    </li>
  );
}

export function RunDocuments({ id, settled, progress }: { id: number; settled: string | null; progress: number }) {
  const [docs, setDocs] = useState<RunDocument[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [next, setNext] = useState<number | null>(0);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const load = async (offset: number, signal?: AbortSignal) => {
    setLoading(true);
    try {
      const page = await runs.documents(id, offset, PAGE, signal);
      setDocs((d) => (offset === 0 ? page.documents : [...d, ...page.documents]));
      setTotal(page.total);
      setNext(page.next_offset);
      setError(null);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError(err);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    const controller = new AbortController();
    void load(0, controller.signal);
    return () => controller.abort();
  }, [id, settled, progress]);
  if (error) return <ErrorNote error={error} title="svc could not list the papers of this run." />;
  if (total === null) return <Busy />;
  if (total === 0) {
    return (
      <EmptyState title={settled ? 'This run found no paper.' : 'No paper yet.'}>
        <p>{settled ? 'The sources above say why each gave nothing. Change the query or the dates and run it again.' : 'Papers appear here as the sources answer.'}</p>
      </EmptyState>
    );
  }
  return (
    <div>
      <p class="muted">{count(total, 'paper')}, newest publication first.</p>
      <ol class="paper-list" onKeyDown={moveThroughRows}>
        {docs.map((doc) => (
          <Paper key={doc.id} doc={doc} />
        ))}
      </ol>
      {next !== null && (
        <button type="button" class="quiet" disabled={loading} onClick={() => load(next)}>
          {loading ? 'Loading…' : `Show ${Math.min(PAGE, total - docs.length)} more`}
        </button>
      )}
    </div>
  );
}
