/**
 * The shapes shared by every provider lane. A lane turns a request into an
 * async stream of events; callers (the assistant's turn runner, the selected
 * answers) never see a family's wire format.
 */
import type { ModelReportSource } from '../wire/assistant.js';

export type FetchLike = typeof globalThis.fetch;

/** The request families the API lanes speak. */
export type RequestFamily = 'openai_chat' | 'anthropic_messages' | 'gemini_generate_content';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A tool the model may call. The turn runner passes a list (empty today); a
 * lane serialises it in its family's shape and reports calls as events.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  inputSchema: Record<string, unknown>;
}

/** A call the model asked for, and (in a follow-up request) its answer. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResult {
  callId: string;
  name: string;
  output: unknown;
  isError: boolean;
}

/** One step of the conversation sent to a provider: plain text, or a tool round. */
export type Turn = ChatMessage | { role: 'assistant'; content: string; toolCalls: ToolCall[] } | { role: 'tool'; results: ToolResult[] };

export interface ChatRequest {
  /** Base URL of the family's API (no trailing path such as /chat/completions). */
  baseUrl: string;
  key: string;
  model: string;
  system?: string;
  messages: Turn[];
  tools?: ToolSpec[];
  maxOutputTokens?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

/** What a lane reports while a response streams. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  /** A model id the response claimed (never the requested echo). */
  | { type: 'model'; model: string; source: ModelReportSource }
  | { type: 'usage'; inputTokens: number | null; outputTokens: number | null; costUsd?: number | null }
  | { type: 'tool_call'; call: ToolCall }
  /** The agent CLI's own conversation id (resume it on the next turn). */
  | { type: 'native_session'; id: string }
  | { type: 'done'; stopReason: string | null };

export interface ModelsRequest {
  baseUrl: string;
  key: string;
  /** Path of the models endpoint when a server puts it elsewhere (must start with /). */
  endpoint?: string;
  /** Authorization scheme word for OpenAI-compatible servers (default Bearer). */
  headerPrefix?: string;
  signal?: AbortSignal;
  fetch?: FetchLike;
}
