/** The shapes of the backend's answers that the pages read (spec 1–3; only the fields the window uses). */
export interface Health {
  status: string;
  version: string;
  schema_version: number | null;
  scheduler: { state: string; held_by: string | null };
  daemon: { state: string };
  started_at_utc: string;
  identity: { runtime_id: string; schema_version: number | null; contract_version: number };
}

export interface OnboardingStep {
  id: string;
  done: boolean;
  hint: string;
}

export interface Onboarding {
  show_card: boolean;
  dismissed_at_utc: string | null;
  facts: { repository_keys_present: number; contact_email_set: boolean };
  steps: OnboardingStep[];
}

export interface Repository {
  id: string;
  name: string;
  homepage: string;
  description: string;
  status: string;
  needs_key: boolean;
  credential: { name: string; required: boolean } | null;
  /** null for a retired service. */
  capabilities: { keyword_query: boolean; date_window: 'exact' | 'year' | 'none' | 'required'; author_search: boolean; orcid_search: boolean; page_size: number; paging: string } | null;
}

export interface Catalog {
  repositories: Repository[];
}

export interface SettingsGroup<T = Record<string, unknown>> {
  group: string;
  settings: T;
}

/** GET /api/search/repositories: whether each source can be searched now, and why not in the service's words. */
export interface SearchRepository {
  id: string;
  name: string;
  searchable: boolean;
  reason: string | null;
  message: string | null;
  key_status: string | null;
}

export interface SearchRepositories {
  repositories: SearchRepository[];
}

/** Saved configurations (GET /api/configurations): named dives, sweeps and routines to start from; the shapes are the service's, from src/wire/configurations.ts. */
export type { Configuration, ConfigurationCreated, ConfigurationList } from '../../../src/wire/configurations.js';
