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
  capabilities: { keyword_query: boolean; date_window: string; author_search: boolean; orcid_search: boolean; page_size: number; paging: string };
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
