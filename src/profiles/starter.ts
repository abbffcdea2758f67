/**
 * The curated starter set: ready-made profiles a new user can import with one
 * click, not yet anybody's profile (no ids, nothing matched). Josiah Carberry
 * is ORCID's own documented test identity, so the identifier basis can be
 * tried without following a real person; the others are widely followed
 * researchers given by name and affiliation only, and carry the basis warning
 * until the user adds an ORCID iD they have checked themselves.
 */
import type { ProfileFields } from './schema.js';
import { identityOf } from './service.js';

const STARTERS: ProfileFields[] = [
  {
    kind: 'person',
    name: 'Josiah Carberry',
    display_name: 'Josiah Carberry (ORCID test identity)',
    orcid: '0000-0002-1825-0097',
    orcid_cited: false,
    aliases: ['J. S. Carberry'],
    affiliations: ['Brown University'],
    field_hints: ['psychoceramics'],
  },
  { kind: 'person', name: 'Jennifer A. Doudna', display_name: 'Jennifer Doudna', orcid: null, orcid_cited: false, aliases: ['Jennifer Doudna'], affiliations: ['University of California, Berkeley'], field_hints: ['CRISPR', 'RNA'] },
  { kind: 'person', name: 'Yoshua Bengio', display_name: 'Yoshua Bengio', orcid: null, orcid_cited: false, aliases: [], affiliations: ['Université de Montréal', 'Mila'], field_hints: ['deep learning', 'cs.LG'] },
  { kind: 'person', name: 'Frances H. Arnold', display_name: 'Frances Arnold', orcid: null, orcid_cited: false, aliases: ['Frances Arnold'], affiliations: ['California Institute of Technology'], field_hints: ['directed evolution', 'enzymes'] },
  { kind: 'person', name: 'Svante Pääbo', display_name: 'Svante Pääbo', orcid: null, orcid_cited: false, aliases: ['Svante Paabo'], affiliations: ['Max Planck Institute for Evolutionary Anthropology'], field_hints: ['ancient DNA', 'genomics'] },
  { kind: 'group', name: 'ATLAS Collaboration', display_name: 'ATLAS Collaboration (CERN)', orcid: null, orcid_cited: false, aliases: ['The ATLAS Collaboration'], affiliations: ['CERN'], field_hints: ['hep-ex'] },
];

export function starterProfiles() {
  return {
    profiles: STARTERS.map((p) => ({ ...p, ...identityOf(p) })),
    total: STARTERS.length,
    note: 'A curated starter set: none of these is a profile yet. Import one with POST /api/profiles/import or `svc profile starter --import NAME`; check an ORCID iD before adding it.',
  };
}
