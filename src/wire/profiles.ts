/**
 * The JSON of watch profiles as the routes send it (spec 1, "Watch
 * profiles"): a profile, the list of them, a profile's matched papers, which
 * profiles matched a page of papers, and the answers of import and delete.
 * Every matches answer carries the glossary (BasisTally). Declared once
 * here, for the service and the window alike; imports nothing but wire files.
 */

/** A person (a researcher, who can be searched for by author) or a group (matched by name only). */
export type ProfileKind = 'person' | 'group';

/** Why a paper matched, strongest first: only orcid is an identity claim; every name basis is a string match. */
export type Basis = 'orcid' | 'orcid_cited' | 'name_affiliation' | 'alias' | 'name_only';

/** The writable fields of a profile, as stored and as an export holds them. */
export interface ProfileFields {
  kind: ProfileKind;
  name: string;
  /** Empty when none was given. */
  display_name: string;
  /** Bare (0000-0002-1825-0097); null when the profile has no identifier. */
  orcid: string | null;
  /** Whether an ORCID cited outside any author record counts (the orcid_cited basis). */
  orcid_cited: boolean;
  aliases: string[];
  affiliations: string[];
  field_hints: string[];
}

/** The identifier schemes a profile carries (only orcid today); basis_warning is present exactly when there is none. */
export interface ProfileIdentity {
  identifier_schemes: string[];
  basis_warning?: string;
}

/** One profile, as create, update, import and the list send it. */
export interface ProfileView extends ProfileFields, ProfileIdentity {
  id: number;
  match_count: number;
  created_at_utc: string;
  updated_at_utc: string;
}

/** GET /api/profiles/{profile_id}: the profile and its matches counted per basis. */
export interface ProfileDetail extends ProfileView {
  by_basis: Record<Basis, number>;
}

/** GET /api/profiles. */
export interface ProfileList {
  profiles: ProfileView[];
  total: number;
}

/** Why a profile matched a paper: the basis, the author it was found on, and what was found. */
export interface MatchFinding {
  basis: Basis;
  /** The author the match was found on; null when an ORCID was cited outside any author record (orcid_cited). */
  matched_author: string | null;
  /** What was found, in a sentence. */
  evidence: string;
}

/** Matches counted per basis, and what each basis means (a basis means nothing without it). */
export interface BasisTally {
  by_basis: Record<Basis, number>;
  what_a_basis_means: Record<Basis, string>;
}

/** One paper a profile matched. */
export interface ProfileMatch extends MatchFinding {
  document_id: number;
  title: string;
  publication_date: string | null;
  doi: string | null;
  matched_at_utc: string;
}

/** GET /api/profiles/{profile_id}/matches: newest papers first, paged by limit and offset. */
export interface ProfileMatchesPage extends ProfileIdentity, BasisTally {
  profile_id: number;
  profile_name: string;
  /** Matches on the basis asked for, or on every basis. */
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  matches: ProfileMatch[];
}

/** A profile that matched a paper of the page. */
export interface DocumentProfileMatch extends MatchFinding {
  profile_id: number;
  profile_name: string;
  kind: ProfileKind;
}

/** POST /api/profiles/matches/for-documents: one entry per distinct id asked, in the order asked; the tally is over every paper of the page. */
export interface MatchesForDocuments extends BasisTally {
  documents: { document_id: number; matches: DocumentProfileMatch[] }[];
}

/** An item of an import that was not stored, because its ORCID is already followed by profile_id. */
export interface ImportSkip {
  /** Its place in the list imported, from 0. */
  index: number;
  reason: string;
  profile_id: number;
}

/** POST /api/profiles/import. */
export interface ImportAnswer {
  imported: number;
  skipped: ImportSkip[];
  profiles: ProfileView[];
}

/** DELETE /api/profiles/{profile_id}: the profile and its matches are gone; no paper was touched. */
export interface ProfileDeleted {
  id: number;
  deleted: true;
  matches_removed: number;
}
