/**
 * A match's basis as a chip, with what it means one click away (the glossary
 * the service sends with every matches answer). Only orcid is an identity
 * claim; the name bases say they are string matches.
 */
import type { Basis } from '../api/profiles.js';

export const BASIS_LABELS: Record<Basis, string> = {
  orcid: 'ORCID iD',
  orcid_cited: 'ORCID cited',
  name_affiliation: 'name + affiliation',
  alias: 'alias',
  name_only: 'name only',
};

const IDENTITY: Basis[] = ['orcid'];

export function BasisChip({ basis }: { basis: Basis }) {
  return (
    <a class={IDENTITY.includes(basis) ? 'chip chip-ok basis-chip' : 'chip chip-warn basis-chip'} href={`#basis-${basis}`} title="What this basis means">
      {BASIS_LABELS[basis] ?? basis}
    </a>
  );
}

export function Glossary({ meanings }: { meanings: Record<Basis, string> }) {
  return (
    <section class="card glossary" aria-labelledby="what-a-basis-means">
      <h2 id="what-a-basis-means">What a basis means</h2>
      <dl>
        {(Object.entries(meanings) as [Basis, string][]).map(([basis, text]) => (
          <div key={basis} id={`basis-${basis}`} class="glossary-entry" tabIndex={-1}>
            <dt>{BASIS_LABELS[basis] ?? basis}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
