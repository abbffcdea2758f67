/**
 * Credentials (spec 1): names and statuses only. A value goes to the backend
 * once — to be stored or checked — and is never read back: no route answers it.
 */
import { api } from './client.js';

export interface CredentialRow {
  name: string;
  kind: 'repository' | 'ai' | 'email' | 'cloud';
  label: string;
  status: 'present' | 'absent' | 'unreadable';
  /** The provider POST /api/credentials/validate checks this key with; null when it cannot be checked. */
  validate_provider: string | null;
}

export interface KeyCheck {
  provider: string;
  valid: boolean;
  status: 'valid' | 'invalid' | 'unreachable' | 'error';
  message: string;
}

export const credentials = {
  list: (signal?: AbortSignal) => api.get<{ credentials: CredentialRow[] }>('/api/credentials', { signal }),
  store: (name: string, value: string) => api.put<{ name: string; status: CredentialRow['status'] }>(`/api/credentials/${encodeURIComponent(name)}`, { value }),
  erase: (name: string) => api.delete<{ name: string; status: CredentialRow['status'] }>(`/api/credentials/${encodeURIComponent(name)}`),
  validate: (provider: string, key: string) => api.post<KeyCheck>('/api/credentials/validate', { provider, key, base_url: null }),
};
