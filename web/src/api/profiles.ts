/**
 * Watch profiles (spec 1, "Watch profiles"): the calls the People followed
 * pages make. The answers' shapes are the service's, from
 * src/wire/profiles.ts.
 */
import type { ImportAnswer, ProfileDeleted, ProfileDetail, ProfileFields, ProfileList, ProfileMatchesPage, ProfileView } from '../../../src/wire/profiles.js';
import { api } from './client.js';

export type { Basis, ImportAnswer, ProfileDetail, ProfileMatch, ProfileMatchesPage, ProfileView as Profile } from '../../../src/wire/profiles.js';

/** What create takes: a name; the service defaults every other field. */
export type NewProfile = Pick<ProfileFields, 'name'> & Partial<ProfileFields>;

export const profiles = {
  list: (signal?: AbortSignal) => api.get<ProfileList>('/api/profiles', { signal }),
  read: (id: number, signal?: AbortSignal) => api.get<ProfileDetail>(`/api/profiles/${id}`, { signal }),
  create: (fields: NewProfile) => api.post<ProfileView>('/api/profiles', fields),
  remove: (id: number) => api.delete<ProfileDeleted>(`/api/profiles/${id}`),
  matches: (id: number, query: { limit: number; offset: number; basis?: string }, signal?: AbortSignal) =>
    api.get<ProfileMatchesPage>(`/api/profiles/${id}/matches`, { query, signal }),
  import: (items: unknown) => api.post<ImportAnswer>('/api/profiles/import', { profiles: items }),
};
