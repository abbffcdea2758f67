/**
 * Which watch profiles matched this paper and on what basis, each basis
 * explained in the service's glossary: an ORCID iD is an identity claim;
 * every name basis is a string match and is said to be one.
 */
import { papers } from '../api/papers.js';
import type { Basis } from '../api/profiles.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const BASIS: Record<Basis, string> = {
  orcid: 'ORCID iD',
  orcid_cited: 'ORCID iD in the record',
  name_affiliation: 'name and affiliation',
  alias: 'alias',
  name_only: 'name only',
};

export function ProfileMatches({ id }: { id: number }) {
  const matches = useResource((signal) => papers.profileMatches(id, signal), [id]);
  const found = matches.data?.documents.find((d) => d.document_id === id)?.matches ?? [];
  return (
    <section class="paper-section side-card" aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Watch profiles</h2>
      <ErrorNote error={matches.error} title="The watch-profile matches could not be read." />
      {!matches.data ? (
        matches.loading && <Busy />
      ) : found.length === 0 ? (
        <p class="muted">No watch profile matches this paper. A profile (svc profile add) follows an author by ORCID iD or name.</p>
      ) : (
        <ul class="matches">
          {found.map((m) => (
            <li key={`${m.profile_id}:${m.basis}:${m.matched_author ?? ''}`} class={m.basis === 'orcid' ? 'match match-identity' : 'match match-string'}>
              <p>
                <strong>{m.profile_name}</strong> matched {m.matched_author ? <>the author “{m.matched_author}”</> : 'the paper'} by{' '}
                <span class={m.basis === 'orcid' ? 'chip chip-ok' : 'chip chip-warn'}>{BASIS[m.basis]}</span>
              </p>
              <p class="muted match-basis">{matches.data!.what_a_basis_means[m.basis]}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
