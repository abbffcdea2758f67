/**
 * The bases of a match, strongest first, and the glossary that travels with
 * every matches answer. Only orcid is an identity claim; every name basis is a
 * string match and says so.
 */
import type { Basis } from '../wire/profiles.js';

export type { Basis } from '../wire/profiles.js';

export const BASES = ['orcid', 'orcid_cited', 'name_affiliation', 'alias', 'name_only'] as const satisfies readonly Basis[];

export const WHAT_A_BASIS_MEANS: Record<Basis, string> = {
  orcid: "An author record of the paper, in the merged paper or in any source's record of it, carries the profile's ORCID iD exactly: the source itself ties this author to that identifier.",
  orcid_cited:
    "The profile's ORCID iD appears in a source's record of the paper, but not on any author record (for example only in a relation or the abstract): it ties the paper, not a named author, to the identifier. Counted only for profiles that ask for it (orcid_cited true).",
  name_affiliation:
    "An author's name agrees with the profile's name (family name and given name or initial) and the author's affiliation contains one of the profile's affiliations as whole words: a string match, not an identity claim.",
  alias:
    "An author's name agrees with one of the profile's aliases (another spelling or a former name): a string match, not an identity claim.",
  name_only:
    'An author\'s name agrees with the profile\'s name (for a group, the whole name) and nothing else was checked: a string match, not an identity claim; namesakes match too.',
};

export const strength = (b: Basis) => BASES.indexOf(b);

/** Counts for every basis, zeros included, so an answer always has the five keys. */
export function byBasis(rows: { basis: Basis; n: number }[]): Record<Basis, number> {
  const counts = Object.fromEntries(BASES.map((b) => [b, 0])) as Record<Basis, number>;
  for (const r of rows) counts[r.basis] = r.n;
  return counts;
}
