/**
 * The shapes of the backend's answers that the pages read (spec 1–3). Health,
 * the first-run card and the source catalog are the service's, from
 * src/wire/health.ts, onboarding.ts and sources.ts.
 */
export type { Health } from '../../../src/wire/health.js';
export type { Onboarding, OnboardingStep } from '../../../src/wire/onboarding.js';
export type { Catalog, Repository, SearchRepositories, SearchRepository } from '../../../src/wire/sources.js';

/** A settings group's read (GET /api/settings/{group}), seen through only the keys a page reads. */
export interface SettingsGroup<T = Record<string, unknown>> {
  group: string;
  settings: T;
}

/** Saved configurations (GET /api/configurations): named dives, sweeps and routines to start from; the shapes are the service's, from src/wire/configurations.ts. */
export type { Configuration, ConfigurationCreated, ConfigurationList } from '../../../src/wire/configurations.js';
