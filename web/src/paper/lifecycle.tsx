/**
 * What became of the paper since it was published: a retraction, a published
 * version of a preprint, a new version or a correction, each with its notice
 * link and what the kind means (the service's glossary); when it was last
 * checked, or why it cannot be.
 */
import { papers } from '../api/papers.js';
import { minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { OutLink } from './paper-head.js';

const KIND: Record<string, string> = { retraction: 'Retracted', preprint_to_published: 'Published version', version_change: 'New version' };

export function Lifecycle({ id }: { id: number }) {
  const life = useResource((signal) => papers.lifecycle(id, signal), [id]);
  const data = life.data;
  return (
    <section class="paper-section side-card" aria-labelledby="life-heading">
      <h2 id="life-heading">Lifecycle</h2>
      <ErrorNote error={life.error} title="The lifecycle could not be read." />
      {!data ? (
        life.loading && <Busy />
      ) : (
        <>
          {data.events.length === 0 ? (
            <p class="muted">No retraction, published version or new version is recorded.</p>
          ) : (
            <ul class="events">
              {data.events.map((e) => {
                const notice = e.notice_url ?? (e.notice_doi ? `https://doi.org/${e.notice_doi}` : null);
                return (
                  <li key={e.id} class={e.kind === 'retraction' ? 'event event-retraction' : 'event'}>
                    <strong>{KIND[e.kind] ?? e.kind.replace(/_/g, ' ')}</strong>
                    {e.event_date && <span class="muted"> {e.event_date}</span>}
                    {e.label && <span> — {e.label}</span>}
                    {notice && (
                      <>
                        {' '}
                        <OutLink href={notice}>notice</OutLink>
                      </>
                    )}
                    <p class="event-meaning muted">
                      Reported by {e.source}, detected {minute(e.detected_at_utc)}: {data.what_a_kind_means[e.kind]}.
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
          <p class="muted check-line">
            {!data.askable
              ? 'svc cannot ask about this paper: it has no DOI, arXiv id or PubMed id.'
              : data.checked_at_utc
                ? `Last checked ${minute(data.checked_at_utc)}.`
                : data.last_attempt
                  ? `Last attempt ${minute(data.last_attempt.at_utc)}: ${data.last_attempt.outcome.replace(/_/g, ' ')}${data.last_attempt.error ? ` (${data.last_attempt.error})` : ''}.`
                  : 'Not checked yet: lifecycle checks run with the routines, or with svc lifecycle check.'}
          </p>
        </>
      )}
    </section>
  );
}
