/**
 * A paper's page, after Semantic Scholar's: what it is (title, authors,
 * venue, date, identifiers linking out), what it says (the abstract), why svc
 * has it, and beside that what to do with it and what is known around it —
 * the reading queue, its lifecycle, watch-profile matches, near-duplicates and
 * similar papers. Each part asks the service on its own, so one refusal does
 * not blank the page.
 */
import { useEffect } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { papers } from '../api/papers.js';
import { lastExplore } from '../explore/state.js';
import type { PageProps } from '../routes.js';
import { Lifecycle } from '../paper/lifecycle.js';
import { NearDuplicates } from '../paper/near-duplicates.js';
import { PaperHead } from '../paper/paper-head.js';
import { ProfileMatches } from '../paper/profile-matches.js';
import { QueueStatus } from '../paper/queue-status.js';
import { Similar } from '../paper/similar.js';
import { Why } from '../paper/why.js';
import { LinkLibraryFile } from '../library/link-file.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { useSourceNames } from '../ui/use-source-names.js';

export default function PaperPage({ params }: PageProps) {
  const id = Number(params.id);
  const why = useResource((signal) => papers.why(id, signal), [id]);
  const sourceName = useSourceNames();
  const paper = why.data?.paper;
  useEffect(() => {
    if (paper) document.title = `${paper.title} · svc`;
  }, [paper]);

  if (why.error) {
    const missing = why.error instanceof ApiError && why.error.status === 404;
    return (
      <>
        <h1>{missing ? 'No such paper' : 'This paper could not be shown'}</h1>
        <ErrorNote error={why.error} />
        <EmptyState title={missing ? 'This paper is not in the corpus.' : 'svc refused to show this paper.'}>
          <p>
            <a href="/explore">Explore the corpus</a> to find it.
          </p>
        </EmptyState>
      </>
    );
  }
  if (!paper || !why.data) return <Busy label="Opening the paper…" />;
  return (
    <article class="paper" aria-labelledby="paper-h1">
      <p class="back-link">
        <a href={lastExplore.value}>← Back to the explorer</a>
      </p>
      <PaperHead paper={paper} sourceName={sourceName} />
      <div class="paper-columns">
        <div class="paper-main">
          <section class="paper-section" aria-labelledby="abstract-heading">
            <h2 id="abstract-heading">Abstract</h2>
            {paper.abstract ? <p class="abstract">{paper.abstract}</p> : <p class="muted">No source gave an abstract.</p>}
          </section>
          <Why why={why.data} sourceName={sourceName} />
        </div>
        <div class="paper-side">
          <QueueStatus id={id} />
          <Lifecycle id={id} />
          <ProfileMatches id={id} />
          <NearDuplicates id={id} title={paper.title} />
          <Similar id={id} />
          <LinkLibraryFile documentId={id} />
        </div>
      </div>
    </article>
  );
}
