/**
 * One paper as a row of the explorer: the title (the link that opens its
 * page), the authors, date and venue, and the sources that found it. Rows
 * have one fixed height (the virtual list depends on it): long titles and
 * author lists are cut with an ellipsis, whole in the link's title.
 */
import type { Paper } from '../api/explorer.js';

/** Pixels per row; app.css gives .result-row the same height. */
export const ROW_HEIGHT = 76;

const MAX_AUTHORS = 4;

function authorsLine(authors: string[]): string {
  if (authors.length === 0) return 'No authors recorded';
  if (authors.length <= MAX_AUTHORS) return authors.join(', ');
  return `${authors.slice(0, MAX_AUTHORS - 1).join(', ')} … ${authors[authors.length - 1]} (${authors.length})`;
}

export function ResultRow({ paper, sourceName, tabbable }: { paper: Paper; sourceName: (id: string) => string; tabbable: boolean }) {
  const date = paper.publication_date ?? (paper.year ? String(paper.year) : 'undated');
  return (
    <div class="result-row">
      <a class="result-title" href={`/papers/${paper.id}`} title={paper.title} tabIndex={tabbable ? 0 : -1}>
        {paper.is_retracted && <span class="chip chip-danger result-flag">Retracted</span>}
        {paper.title}
      </a>
      <p class="result-meta">
        <span class="result-authors">{authorsLine(paper.authors)}</span>
        <span class="result-sep" aria-hidden="true">
          ·
        </span>
        <span>{date}</span>
        {paper.venue && (
          <>
            <span class="result-sep" aria-hidden="true">
              ·
            </span>
            <span class="result-venue">{paper.venue}</span>
          </>
        )}
      </p>
      <p class="result-meta result-sources">
        {paper.sources.map((s) => (
          <span key={s} class="chip">
            {sourceName(s)}
          </span>
        ))}
        {paper.type && <span class="result-type">{paper.type.replace(/[_-]/g, ' ')}</span>}
        {typeof paper.distance === 'number' && <span class="result-distance">distance {paper.distance.toFixed(3)}</span>}
      </p>
    </div>
  );
}
