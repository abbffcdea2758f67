/**
 * The JSON of the assistant as the routes send it (spec 3): the composer
 * choices (the complete object a conversation or an answer is bound to, how
 * each of its values was chosen, and the connections the status offers);
 * saved conversations (browse, the legacy list, a conversation's detail,
 * delete, the export envelope); the answer of a cancel and of a permission
 * request; and the events of a turn's stream. Declared once here, for the
 * service and the window alike; imports nothing but wire files.
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

/** How the binding came to be: at creation, or on the first send of a conversation from before bindings (legacy_confirmed). */
export type BindingBasis = 'new' | 'legacy_confirmed';

/** The choices a conversation is bound to, how each value was chosen, and when (the route digest never leaves the database). */
export interface SessionChoices extends Choices, ChoiceBasis {
  binding_basis: BindingBasis;
  created_at_utc: string;
}

/** A conversation's binding: null for one from before bindings (unknown historical settings), {unreadable: true} when the stored values make no sense. */
export type BoundChoices = SessionChoices | { unreadable: true } | null;

/** The conversation itself, as browse, the legacy list and the detail show it. */
export interface SessionView {
  id: number;
  /** As stored: null or empty when none was given. */
  title: string | null;
  /** "New conversation" when the stored title is absent or empty. */
  display_title: string;
  /** The runtime and model stored on the conversation (a legacy one's may be anything it recorded); null when none was. */
  runtime: string | null;
  model: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

/** One conversation of browse or the legacy list. */
export interface ConversationRow extends SessionView {
  message_count: number;
  choices: BoundChoices;
}

/** GET /api/assistant/sessions/browse: id descending, frozen at through_id (ids only, not contents). */
export interface ConversationPage {
  sessions: ConversationRow[];
  /** The id ceiling to send again for the next pages. */
  through_id: number;
  /** The before_id of the next page; null on the last. */
  next_before_id: number | null;
  has_more: boolean;
}

/** GET /api/assistant/sessions: the legacy list, newest update first. */
export interface ConversationList {
  sessions: ConversationRow[];
}

export type MessageRole = 'user' | 'assistant' | 'tool';

/** A stored JSON tool field: absent storage gives null data; JSON that does not parse is unreadable and carries its raw text. */
export type ToolField = { data: unknown; unreadable: false } | { data: null; unreadable: true; raw: string };

/** One saved message; tokens and cost are what the runtime recorded (null is not recorded, not zero; cost is no billing claim). */
export interface Message {
  id: number;
  role: MessageRole;
  /** Exactly as saved. */
  content: string;
  created_at_utc: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  tool_calls: ToolField;
  tool_results: ToolField;
}

/** Where a model report came from: the agent CLI's init message, an API answer's model, or an API answer's modelVersion. */
export type ModelReportSource = 'agent_system_init_model' | 'api_response_model' | 'alt_api_response_modelVersion';

/** The model a response claimed to be (a claim, not proof of execution or billing), in the order observed. */
export interface ModelReport {
  sequence: number;
  model: string;
  source: ModelReportSource;
  observed_at_utc: string;
}

/** One turn's requested choices, fixed when its user message was admitted, and the models its responses reported. */
export interface TurnChoices {
  user_message_id: number;
  /** The reply the turn saved; null before one (or when its link is unreadable). */
  assistant_message_id: number | null;
  /** The stored reply link points into another conversation: it is not shown. */
  assistant_message_unreadable: boolean;
  requested: Choices;
  reports: ModelReport[];
  created_at_utc: string;
}

/** What a read holds: the persisted messages only (a running turn may add more after it). */
export interface ConversationSnapshot {
  captured_at_utc: string;
  basis: 'persisted_messages_only';
  message_count: number;
  /** null with no messages. */
  last_message_id: number | null;
}

/** Whether a turn runs, observed in memory beside the read (not atomic with the database). */
export interface ActivityObservation {
  observed_at_utc: string;
  turn_claimed: boolean;
  cli_running: boolean;
  basis: 'in_memory_observation_not_atomic_with_database';
}

/** GET /api/assistant/sessions/{session_id}, and the answer of POST /api/assistant/sessions. */
export interface Conversation {
  session: SessionView;
  messages: Message[];
  /** Sums of what was recorded; null when no message recorded any. */
  totals: { message_count: number; input_tokens: number | null; output_tokens: number | null; cost_usd: number | null };
  /** The agent CLI process of a running turn, as registered (pid null when none runs). */
  running: { cli_running: boolean; pid: number | null };
  snapshot: ConversationSnapshot;
  activity_observation: ActivityObservation;
  choices_version: 1;
  choices: BoundChoices;
  turn_choices: TurnChoices[];
}

/** DELETE /api/assistant/sessions/{session_id}. */
export interface ConversationDeleted {
  id: number;
  deleted: true;
}

/** GET /api/assistant/sessions/{session_id}/export: the export is text (JSON version 1 or Markdown), in an envelope. */
export interface ConversationExport {
  session_id: number;
  format: 'json' | 'markdown';
  /** svc-chat-<id>.json or svc-chat-<id>.md. */
  filename: string;
  content_type: 'application/json' | 'text/markdown';
  text: string;
  snapshot: ConversationSnapshot;
}

/** What a cancel did: asked a running turn to stop, found it already stopping, or found none. */
export type CancelOutcome = 'cancel_requested' | 'already_cancelling' | 'no_active_turn';

/** POST /api/assistant/sessions/{session_id}/cancel: idempotent; the answer says which happened. */
export interface CancelAnswer {
  session_id: number;
  outcome: CancelOutcome;
  cancelled: boolean;
  /** Which process was asked to stop the turn: this one, or another on the same data directory (null when none was). */
  owner: 'this_process' | 'other_process' | null;
  /** A claim left by a process that no longer runs (or from before a restart): nothing to stop, the next send takes it over. */
  stale_claim: { pid: number; claimed_at_utc: string; reason: 'process_gone' | 'before_boot' } | null;
  message: string;
}

/** POST /api/assistant/permissions/{request_id}, and the body the held permission request finally answers. */
export interface PermissionAnswer {
  request_id: string;
  session_id: number;
  tool_name: string;
  tool_use_id: string | null;
  allow: boolean;
  reason: string | null;
  answered_at_utc: string;
}

/** Every event of a turn's stream names its conversation and the user message that started the turn. */
interface TurnEventBase {
  session_id: number;
  user_message_id: number;
}

/** Which way a turn ended. */
export type TurnStatus = 'completed' | 'cancelled' | 'failed';

/**
 * One server-sent event of POST /api/assistant/sessions/{session_id}/messages,
 * in the order a turn produces them: turn_choices after admission; text,
 * model reports, tool calls and results, permission requests and answers as
 * they come; an error when the turn failed; the saved reply (message); done.
 */
export type TurnEvent =
  | { event: 'turn_choices'; data: TurnEventBase & Omit<TurnChoices, 'user_message_id' | 'assistant_message_unreadable'> }
  /** Sent once the report is saved. */
  | { event: 'turn_model_report'; data: TurnEventBase & ModelReport }
  /** A piece of the reply, scrubbed of secrets. */
  | { event: 'text'; data: TurnEventBase & { delta: string } }
  | { event: 'tool_call'; data: TurnEventBase & { id: string; name: string; input: Record<string, unknown> } }
  | { event: 'tool_result'; data: TurnEventBase & { id: string; name: string; output: unknown; is_error: boolean } }
  /** The agent CLI asks to use a tool; the turn waits until the person answers (POST /api/assistant/permissions/{request_id}). */
  | { event: 'permission_request'; data: TurnEventBase & { request_id: string; tool_name: string; tool_use_id: string | null; input: Record<string, unknown> } }
  | { event: 'permission_answered'; data: TurnEventBase & Omit<PermissionAnswer, 'session_id'> }
  | { event: 'error'; data: TurnEventBase & { reason: string; message: string } }
  /** The reply as saved, with what the runtime recorded (null is not recorded, not zero). */
  | { event: 'message'; data: TurnEventBase & { assistant_message_id: number; content: string; input_tokens: number | null; output_tokens: number | null; cost_usd: number | null } }
  | { event: 'done'; data: TurnEventBase & { status: TurnStatus } };
