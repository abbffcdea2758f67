/** Watch profiles (spec 1, "Watch profiles"): the calls the People followed pages make, and the shapes they read. */
import { api } from './client.js';

export type Basis = 'orcid' | 'orcid_cited' | 'name_affiliation' | 'alias' | 'name_only';

export interface Profile {
  id: number;
  kind: 'person' | 'group';
  name: string;
  display_name: string;
  orcid: string | null;
  orcid_cited: boolean;
  aliases: string[];
  affiliations: string[];
  field_hints: string[];
  identifier_schemes: string[];
  /** Present where the profile has no identifier: it can match by name only. */
  basis_warning?: string;
  match_count: number;
  created_at_utc: string;
  updated_at_utc: string;
  by_basis?: Record<Basis, number>;
}

export interface ProfileMatch {
  document_id: number;
  title: string;
  publication_date: string | null;
  doi: string | null;
  basis: Basis;
  matched_author: string;
  evidence: string;
  matched_at_utc: string;
}

export interface ProfileMatches {
  profile_id: number;
  profile_name: string;
  basis_warning?: string;
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  matches: ProfileMatch[];
  by_basis: Record<Basis, number>;
  what_a_basis_means: Record<Basis, string>;
}

export interface ProfileFields {
  kind?: 'person' | 'group';
  name: string;
  display_name?: string;
  orcid?: string | null;
  aliases?: string[];
  affiliations?: string[];
}

export interface ImportAnswer {
  imported: number;
  skipped: { index: number; reason: string; profile_id: number }[];
  profiles: Profile[];
}

export const profiles = {
  list: (signal?: AbortSignal) => api.get<{ profiles: Profile[]; total: number }>('/api/profiles', { signal }),
  read: (id: number, signal?: AbortSignal) => api.get<Profile>(`/api/profiles/${id}`, { signal }),
  create: (fields: ProfileFields) => api.post<Profile>('/api/profiles', fields),
  remove: (id: number) => api.delete<{ id: number; deleted: boolean; matches_removed: number }>(`/api/profiles/${id}`),
  matches: (id: number, query: { limit: number; offset: number; basis?: string }, signal?: AbortSignal) => api.get<ProfileMatches>(`/api/profiles/${id}/matches`, { query, signal }),
  import: (items: unknown) => api.post<ImportAnswer>('/api/profiles/import', { profiles: items }),
};
