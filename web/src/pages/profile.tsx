/**
 * One followed person: identifier or the service's name-only warning, the
 * matches by basis (a chip per match, the glossary one click away), export,
 * removal, and "follow from a routine" (the routine form with this profile
 * chosen: /routines/new?profile=<id>).
 */
import { useState } from 'preact/hooks';
import { download } from '../api/download.js';
import { profiles, type Basis } from '../api/profiles.js';
import { href, navigate, place } from '../router.js';
import type { PageProps } from '../routes.js';
import { BASIS_LABELS, BasisChip, Glossary } from '../profiles/basis.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const PAGE = 25;
const NAME_BASES: Basis[] = ['name_affiliation', 'alias', 'name_only'];

export default function ProfilePage({ params }: PageProps) {
  const id = Number(params.id);
  const basis = place.value.query.get('basis') ?? '';
  const offset = Math.max(0, Number(place.value.query.get('offset')) || 0);
  const profile = useResource((signal) => profiles.read(id, signal), [id]);
  const matches = useResource((signal) => profiles.matches(id, { limit: PAGE, offset, basis: basis || undefined }, signal), [id, basis, offset]);
  const [actionError, setActionError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);

  const p = profile.data;
  async function exportIt() {
    setActionError(null);
    try {
      await download('GET', `/api/profiles/${id}/export`, `svc-profile-${id}.json`);
    } catch (err) {
      setActionError(err);
    }
  }
  async function remove() {
    setActionError(null);
    try {
      await profiles.remove(id);
      navigate('/profiles');
    } catch (err) {
      setActionError(err);
      setConfirming(false);
    }
  }
  if (profile.error && !p) return <ErrorNote error={profile.error} title="svc could not read this profile." />;
  if (!p) return <Busy />;
  const m = matches.data;
  return (
    <>
      <p class="breadcrumb">
        <a href="/profiles">People followed</a>
      </p>
      <header class="page-header">
        <h1>{p.display_name || p.name}</h1>
        <p class="lede">
          {p.kind === 'group' ? 'A group' : 'A person'}
          {p.orcid ? (
            <>
              {' '}with ORCID iD <a href={`https://orcid.org/${p.orcid}`} rel="noreferrer noopener" target="_blank">{p.orcid}</a>
            </>
          ) : null}
          {p.affiliations.length > 0 && ` · ${p.affiliations.join(' · ')}`}
          {p.aliases.length > 0 && ` · also written ${p.aliases.join(', ')}`}
        </p>
      </header>
      {p.basis_warning && (
        <div class="note note-warn">
          <p>{p.basis_warning}</p>
        </div>
      )}
      <div class="run-actions">
        <a class="button" href={href('/routines/new', { profile: id })}>
          Follow from a routine
        </a>
        <button type="button" class="quiet" onClick={exportIt}>
          Export
        </button>
        {confirming ? (
          <>
            <button type="button" class="danger" onClick={remove}>
              Stop following {p.name} (the papers stay)
            </button>
            <button type="button" class="quiet" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" class="quiet" onClick={() => setConfirming(true)}>
            Stop following…
          </button>
        )}
      </div>
      <ErrorNote error={actionError} />
      <section aria-labelledby="matches">
        <h2 id="matches">Matched papers{m ? ` (${m.total})` : ''}</h2>
        {m && (
          <div class="basis-filter" role="group" aria-label="Show matches on one basis">
            <a class={basis ? 'chip' : 'chip chip-on'} href={href(`/profiles/${id}`)} aria-current={basis ? undefined : 'true'}>
              every basis
            </a>
            {(Object.entries(m.by_basis) as [Basis, number][]).map(([b, n]) => (
              <a key={b} class={basis === b ? 'chip chip-on' : 'chip'} href={href(`/profiles/${id}`, { basis: b })} aria-current={basis === b ? 'true' : undefined}>
                {BASIS_LABELS[b]} {n}
              </a>
            ))}
          </div>
        )}
        <ErrorNote error={matches.error} />
        {matches.loading && !m && <Busy />}
        {m && m.matches.length === 0 && (
          <EmptyState title={basis ? `No paper matched on the basis "${BASIS_LABELS[basis as Basis] ?? basis}".` : 'No paper in the corpus matches this profile yet.'}>
            <p>
              {basis ? <a href={href(`/profiles/${id}`)}>Show every basis</a> : <>Run a search that finds their work, or <a href={href('/routines/new', { profile: id })}>follow them from a routine</a>.</>}
            </p>
          </EmptyState>
        )}
        {m && m.matches.length > 0 && (
          <ul class="paper-list">
            {m.matches.map((x) => (
              <li key={x.document_id} class="paper">
                <a class="paper-title" href={`/papers/${x.document_id}`}>
                  {x.title}
                </a>
                <p class="paper-meta">
                  <BasisChip basis={x.basis} /> {x.matched_author}
                  {x.publication_date && ` · ${x.publication_date}`}
                </p>
                {NAME_BASES.includes(x.basis) && <p class="muted">A string match, not an identity claim: the author's name agrees{x.basis === 'name_affiliation' ? ' and so does an affiliation' : ''}; a namesake would match too.</p>}
                {x.evidence && <p class="muted">{x.evidence}</p>}
              </li>
            ))}
          </ul>
        )}
        {m && (m.offset > 0 || m.has_more) && (
          <p class="pager">
            {m.offset > 0 && <a href={href(`/profiles/${id}`, { basis, offset: Math.max(0, m.offset - PAGE) || undefined })}>Previous</a>}
            <span class="muted">
              {m.offset + 1}–{m.offset + m.matches.length} of {count(m.total, 'match', 'matches')}
            </span>
            {m.has_more && <a href={href(`/profiles/${id}`, { basis, offset: m.offset + PAGE })}>Next</a>}
          </p>
        )}
      </section>
      {m && <Glossary meanings={m.what_a_basis_means} />}
    </>
  );
}
