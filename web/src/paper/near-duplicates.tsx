/**
 * What else looks like the same work: each link with its method, its kind
 * where the service gives one (same work, or a related version), its score
 * and evidence; and the collapse preview, which says which of these papers a
 * collapse would keep and which it would fold — a preview only, nothing folded.
 */
import { useState } from 'preact/hooks';
import { papers, type CollapsePreview, type LinkView } from '../api/papers.js';
import { reasonWords } from '../api/errors.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const METHOD: Record<string, string> = {
  relation: 'a source states the relation',
  arxiv_version: 'versions of one arXiv paper',
  preprint_published: 'a preprint and its published version',
  doi_variant: 'two DOIs for one work',
  title_variant: 'the same title, authors and years',
};

const KIND: Record<string, string> = { same_work: 'Same work', related_version: 'Related version' };

function Link({ link }: { link: LinkView }) {
  return (
    <li class="dup">
      <a href={`/papers/${link.document_id}`}>{link.title ?? `Paper ${link.document_id}`}</a>
      {link.year && <span class="muted"> ({link.year})</span>}
      <p class="dup-meta">
        {link.kind && <span class={link.kind === 'same_work' ? 'chip chip-warn' : 'chip'}>{KIND[link.kind] ?? link.kind.replace(/_/g, ' ')}</span>}
        <span>{METHOD[link.method] ?? link.method.replace(/_/g, ' ')}</span>
        <span class="muted">score {link.score.toFixed(2)}</span>
      </p>
      {link.evidence_text && <p class="dup-evidence muted">{link.evidence_text}</p>}
    </li>
  );
}

function Preview({ preview, title }: { preview: CollapsePreview; title: (id: number) => string }) {
  return (
    <div class="collapse-preview" role="status">
      {preview.groups.length === 0 ? (
        <p>A collapse would fold none of these papers.</p>
      ) : (
        preview.groups.map((g) => (
          <p key={g.keep}>
            A collapse would keep <a href={`/papers/${g.keep}`}>{title(g.keep)}</a> and fold into it{' '}
            {g.fold.map((f, i) => (
              <span key={f}>
                {i > 0 && ', '}
                <a href={`/papers/${f}`}>{title(f)}</a>
              </span>
            ))}{' '}
            ({g.methods.map((m) => METHOD[m] ?? m).join('; ')}).
          </p>
        ))
      )}
      <p class="muted">{preview.note}</p>
    </div>
  );
}

export function NearDuplicates({ id, title }: { id: number; title: string }) {
  const links = useResource((signal) => papers.links(id, signal), [id]);
  const [preview, setPreview] = useState<CollapsePreview | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const data = links.data;
  const titleOf = (doc: number) => (doc === id ? `this paper (“${title}”)` : (data?.links.find((l) => l.document_id === doc)?.title ?? `paper ${doc}`));

  async function ask() {
    if (!data) return;
    setAsking(true);
    setPreviewError(null);
    try {
      setPreview(await papers.collapsePreview([id, ...data.links.map((l) => l.document_id)]));
    } catch (err) {
      setPreviewError(err);
    } finally {
      setAsking(false);
    }
  }

  return (
    <section class="paper-section side-card" aria-labelledby="dups-heading">
      <h2 id="dups-heading">Near-duplicates</h2>
      <ErrorNote error={links.error} title="The links could not be read." />
      {!data ? (
        links.loading && <Busy />
      ) : data.links.length === 0 ? (
        <p class="muted">
          {data.message ?? 'Nothing is linked to this paper.'}
          {data.reason && <span class="note-reason"> (svc's reason: {reasonWords(data.reason)})</span>}
        </p>
      ) : (
        <>
          <ul class="dups">
            {data.links.map((l) => (
              <Link key={`${l.document_id}:${l.method}`} link={l} />
            ))}
          </ul>
          <button type="button" class="quiet" onClick={ask} disabled={asking}>
            {asking ? 'Asking…' : 'Preview a collapse'}
          </button>
          <ErrorNote error={previewError} title="The preview was refused." />
          {preview && <Preview preview={preview} title={titleOf} />}
        </>
      )}
    </section>
  );
}
