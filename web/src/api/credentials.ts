/**
 * Credentials (spec 1): names and statuses only. A value goes to the backend
 * once — to be stored or checked — and is never read back: no route answers it.
 * The answers' shapes are the service's, from src/wire/credentials.ts.
 */
import type { CredentialList, CredentialWritten, KeyCheck } from '../../../src/wire/credentials.js';
import { api } from './client.js';

export type { CredentialRow, KeyCheck } from '../../../src/wire/credentials.js';

export const credentials = {
  list: (signal?: AbortSignal) => api.get<CredentialList>('/api/credentials', { signal }),
  store: (name: string, value: string) => api.put<CredentialWritten>(`/api/credentials/${encodeURIComponent(name)}`, { value }),
  erase: (name: string) => api.delete<CredentialWritten>(`/api/credentials/${encodeURIComponent(name)}`),
  validate: (provider: string, key: string) => api.post<KeyCheck>('/api/credentials/validate', { provider, key, base_url: null }),
};
