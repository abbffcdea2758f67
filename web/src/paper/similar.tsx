/**
 * The papers nearest to this one by the active embedding model, nearest
 * first; an empty list says why in the service's words (embeddings off, no
 * vector for this paper yet…).
 */
import { papers } from '../api/papers.js';
import { reasonWords } from '../api/errors.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

export function Similar({ id }: { id: number }) {
  const similar = useResource((signal) => papers.similar(id, signal), [id]);
  const data = similar.data;
  return (
    <section class="paper-section side-card" aria-labelledby="similar-heading">
      <h2 id="similar-heading">Similar papers</h2>
      <ErrorNote error={similar.error} title="Similar papers could not be read." />
      {!data ? (
        similar.loading && <Busy />
      ) : data.results.length === 0 ? (
        <p class="muted">
          {data.message ?? 'No similar paper.'}
          {data.reason && <span class="note-reason"> (svc's reason: {reasonWords(data.reason)})</span>}
        </p>
      ) : (
        <>
          <ol class="similar">
            {data.results.map((r) => (
              <li key={r.document_id}>
                <a href={`/papers/${r.document_id}`}>{r.title}</a>
                {r.year && <span class="muted"> ({r.year})</span>}
                <span class="muted similar-distance"> distance {r.distance.toFixed(3)}</span>
              </li>
            ))}
          </ol>
          <p class="muted">
            By {data.model}
            {data.kind === 'lexical' ? ', a lexical model: near means sharing words, not meaning.' : '.'}
          </p>
        </>
      )}
    </section>
  );
}
