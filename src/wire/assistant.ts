/**
 * The JSON of the assistant's composer choices as the routes send them
 * (spec 3): the complete object a conversation or an answer is bound to, how
 * each of its values was chosen, and the connections the status offers.
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */

export type Runtime = 'agent_cli' | 'api_key';

/** The complete choices object: no field missing or extra (the service refuses any other). */
export interface Choices {
  version: 1;
  runtime: Runtime;
  provider: string;
  model: string | null;
  effort: string | null;
}

/** Whether each value was named, taken from the settings, or left to the runtime. */
export interface ChoiceBasis {
  model_basis: 'explicit' | 'settings_default' | 'runtime_default';
  effort_basis: 'explicit' | 'settings_default' | 'runtime_default' | 'not_supported';
}

/** One connection a composer may pick, and whether it can run now (reason says why not). */
export interface Connection {
  runtime: Runtime;
  provider: string;
  label: string;
  implemented: boolean;
  available: boolean;
  reason: string | null;
  effort_support: { supported: boolean; values: string[] };
  /** API connections: the request format the provider speaks. */
  request_family?: string;
}

export interface ComposerChoices {
  version: 1;
  /** What a creation naming no choices would bind; null with default_error when the settings give none usable. */
  default_request: Choices | null;
  default_error: string | null;
  connections: Connection[];
  agent_aliases: string[];
  agent_efforts: string[];
  limitations: string[];
}

/** GET /api/assistant/status. */
export interface AssistantStatus {
  can_run: boolean;
  reason: string | null;
  composer_choices: ComposerChoices;
}
