/**
 * The top of a paper's page: a retraction said first, the title, the authors
 * (with their ORCID iDs as links), venue, date and type, the sources that
 * found it, and where to read it. Links out open in a new tab and carry
 * neither opener nor referrer.
 */
import type { ComponentChildren } from 'preact';
import type { PaperDetail } from '../api/papers.js';
import { href } from '../router.js';

export function OutLink({ href, children, label }: { href: string; children: ComponentChildren; label?: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" class="out-link" aria-label={label}>
      {children}
      <span class="out-mark" aria-hidden="true">
        ↗
      </span>
    </a>
  );
}

const PRECISION: Record<string, (date: string) => string> = {
  year: (d) => d.slice(0, 4),
  month: (d) => d.slice(0, 7),
};

function dateText(paper: PaperDetail): string {
  if (!paper.publication_date) return paper.year ? String(paper.year) : 'undated';
  return PRECISION[paper.date_precision ?? '']?.(paper.publication_date) ?? paper.publication_date;
}

function Authors({ paper }: { paper: PaperDetail }) {
  const authors = paper.author_details.length ? paper.author_details : paper.authors.map((name) => ({ name }) as PaperDetail['author_details'][number]);
  if (authors.length === 0) return <p class="paper-authors muted">No authors recorded.</p>;
  return (
    <ul class="paper-authors" aria-label="Authors">
      {authors.map((a, i) => (
        <li key={`${i}:${a.name}`} title={a.affiliations?.length ? a.affiliations.join('; ') : undefined}>
          {a.name}
          {a.orcid && (
            <>
              {' '}
              <OutLink href={`https://orcid.org/${a.orcid}`} label={`ORCID iD of ${a.name}: ${a.orcid}`}>
                <span class="orcid">iD</span>
              </OutLink>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function PaperHead({ paper, sourceName }: { paper: PaperDetail; sourceName: (id: string) => string }) {
  return (
    <header class="paper-head">
      {paper.is_retracted && (
        <p class="note note-error paper-retracted" role="note">
          <strong>This paper has been retracted.</strong> Its lifecycle below gives the notice.
        </p>
      )}
      <h1 class="paper-h1" id="paper-h1">{paper.title}</h1>
      <Authors paper={paper} />
      <p class="paper-line">
        {paper.venue && <span class="paper-journal">{paper.venue}</span>}
        <span>{dateText(paper)}</span>
        {paper.type && <span>{paper.type.replace(/[_-]/g, ' ')}</span>}
        {paper.open_access && <span class="chip chip-ok">Open access</span>}
        {paper.license && <span>Licence {paper.license}</span>}
      </p>
      <p class="paper-line">
        <span class="muted">Found by</span>
        {paper.sources.map((s) => (
          <span key={s} class="chip">
            {sourceName(s)}
          </span>
        ))}
      </p>
      {paper.categories.length > 0 && (
        <p class="paper-line">
          <span class="muted">Subjects</span>
          {paper.categories.map((c) => (
            <a key={c} class="chip chip-link" href={href('/explore', { category: c })}>
              {c}
            </a>
          ))}
        </p>
      )}
      <Identifiers paper={paper} />
      <p class="paper-read">
        {paper.url && <OutLink href={paper.url}>Open the paper's page</OutLink>}
        {paper.pdf_url && <OutLink href={paper.pdf_url}>PDF</OutLink>}
      </p>
    </header>
  );
}

/** Every identifier on one line, each opening its registry's or its source's page. */
function Identifiers({ paper }: { paper: PaperDetail }) {
  if (paper.identifiers.length === 0) return null;
  return (
    <dl class="paper-idents">
      {paper.identifiers.map((id) => (
        <div key={id.scheme} class="paper-ident">
          <dt>{id.label}</dt>
          <dd>
            {id.url ? (
              <OutLink href={id.url} label={`${id.label} ${id.value} (opens in a new tab)`}>
                {id.value}
              </OutLink>
            ) : (
              id.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
