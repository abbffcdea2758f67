/**
 * People followed: the watch profiles, each with its identifier (or the
 * service's warning that it can match by name only) and its match count; a
 * form to follow someone new; import of exported profiles.
 */
import { profiles, type Profile } from '../api/profiles.js';
import { AddProfile } from '../profiles/form.js';
import { ImportProfiles } from '../profiles/import.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

function Row({ profile }: { profile: Profile }) {
  return (
    <li class="profile-row">
      <div>
        <a href={`/profiles/${profile.id}`} data-row-link class="profile-name">
          {profile.display_name || profile.name}
        </a>
        {profile.kind === 'group' && <span class="chip">group</span>}
        {profile.orcid ? <span class="chip chip-ok">ORCID {profile.orcid}</span> : <span class="chip chip-warn">name only</span>}
      </div>
      {profile.affiliations.length > 0 && <p class="muted">{profile.affiliations.join(' · ')}</p>}
      {profile.basis_warning && <p class="muted profile-warning">{profile.basis_warning}</p>}
      <p class="muted">{count(profile.match_count, 'matched paper')}</p>
    </li>
  );
}

export default function Profiles() {
  const list = useResource((signal) => profiles.list(signal), []);
  const items = list.data?.profiles ?? [];
  return (
    <>
      <header class="page-header">
        <h1>People followed</h1>
        <p class="lede">Researchers and groups whose papers svc picks out of the corpus, each match with the basis it rests on. A routine can follow a profile and report what is new.</p>
      </header>
      <ErrorNote error={list.error} title="svc could not list the profiles." />
      <div class="profiles-layout">
        <section aria-labelledby="followed">
          <h2 id="followed">Followed{list.data ? ` (${list.data.total})` : ''}</h2>
          {list.loading && !list.data && <Busy />}
          {list.data && items.length === 0 && (
            <EmptyState title="You follow nobody yet.">
              <p>Add a person with the form (an ORCID iD makes matches identity matches), or import a file another svc exported.</p>
            </EmptyState>
          )}
          {items.length > 0 && (
            <ul class="profile-list" onKeyDown={moveThroughRows}>
              {items.map((p) => (
                <Row key={p.id} profile={p} />
              ))}
            </ul>
          )}
        </section>
        <div class="profiles-side">
          <AddProfile onAdded={() => list.reload()} />
          <ImportProfiles onImported={() => list.reload()} />
        </div>
      </div>
    </>
  );
}
