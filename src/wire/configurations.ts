/**
 * The JSON of saved configurations as the routes send it (spec 1, "Saved
 * configuration"): a named search to start from, the list of them, and the
 * answers of create, delete and import. Export answers a file, not this JSON.
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */

/** What the parameters are, validated as that request would be: a DiveRequest, a SweepRequest, or a routine's parameters. */
export type ConfigType = 'dive' | 'sweep' | 'routine';

/** One saved configuration, as list and update send it. */
export interface Configuration {
  id: number;
  /** Names may repeat; the id tells configurations apart. */
  name: string;
  config_type: ConfigType;
  /** The request's body as it was saved (never a secret or a request_id). */
  parameters: Record<string, unknown>;
  created_at_utc: string;
  updated_at_utc: string;
  /** Runs that name it as their saved configuration. */
  execution_count: number;
}

/** GET /api/configurations. */
export interface ConfigurationList {
  configurations: Configuration[];
  total: number;
}

/** POST /api/configurations (201). */
export interface ConfigurationCreated extends Configuration {
  /** The run it was saved from (link_to_execution_id); null when none was named. */
  linked_execution_id: number | null;
}

/** DELETE /api/configurations/{config_id}: runs that named it stop naming it. */
export interface ConfigurationDeleted {
  id: number;
  deleted: true;
  executions_unlinked: number;
}

/** A configuration an import stored, or found already there. */
export interface ConfigurationImported {
  id: number;
  name: string;
  config_type: ConfigType;
}

/** POST /api/configurations/import (201): all of it stored, or nothing (a 422). */
export interface ConfigurationImport {
  imported: ConfigurationImported[];
  count: number;
  /** Entries equal to a saved configuration (same name, type and parameters), not stored again: the id is the one there. */
  already_present: ConfigurationImported[];
  /** Entries stored under a name other configurations have (shared_with), so the clash is never silent. */
  shared_names: { id: number; name: string; shared_with: number[] }[];
}
