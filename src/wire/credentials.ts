/**
 * The JSON of credentials as the routes send it (spec 1, "Credentials,
 * settings, configurations, cloud"): names and statuses only. A value goes to
 * the service once, to be stored or checked, and no route answers it back.
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */

/** What a credential opens: a repository (source) API, an AI provider, the mail server, the cloud account. */
export type CredentialKind = 'repository' | 'ai' | 'email' | 'cloud';

/** unreadable: the credentials file (or this name's value in it) cannot be read as svc writes it; nothing sends such a value. */
export type CredentialStatus = 'present' | 'absent' | 'unreadable';

/** A credential name svc knows, and whether a value is stored for it (what the store tells every caller but the one sending it upstream). */
export interface CredentialState {
  name: string;
  kind: CredentialKind;
  label: string;
  status: CredentialStatus;
}

/** One row of GET /api/credentials. */
export interface CredentialRow extends CredentialState {
  /** The provider POST /api/credentials/validate checks this key with (AI keys only); null when it cannot be checked. */
  validate_provider: string | null;
}

/** GET /api/credentials: every known name, stored or not. */
export interface CredentialList {
  credentials: CredentialRow[];
}

/** PUT and DELETE /api/credentials/{key_name}: the name's status after the write. */
export interface CredentialWritten {
  name: string;
  status: CredentialStatus;
}

/** POST /api/credentials/validate: the key asked of the provider's models endpoint; a refusal is an answer, not an error. */
export interface KeyCheck {
  provider: string;
  /** The credential name the provider's key is stored under. */
  credential: string;
  /** Whether the key checked was the request's or the stored one. */
  key_source: 'request' | 'stored';
  checked_at_utc: string;
  endpoint: 'models';
  valid: boolean;
  /** invalid: the provider refused the key; unreachable: no answer; error: any other failure. */
  status: 'valid' | 'invalid' | 'unreachable' | 'error';
  message: string;
  /** The model ids the key reaches: only on a valid key. */
  models?: string[];
}
