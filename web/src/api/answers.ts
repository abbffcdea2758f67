/**
 * Selected-evidence answers (spec 2, "Selected-answer routes") and the little
 * of the Evidence project they choose from: the project's pinned files and
 * saved notes, the preview of the exact request, the hash-bound send, the
 * answer's event stream, cancel, history and the ZIP and HTML exports. Every
 * call carries the Library header; the browser adds the renderer's Origin.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { api } from './client.js';
import { evidence } from './evidence.js';
import { LIBRARY_HEADERS as LIBRARY } from './library.js';
import { download } from './download.js';
import { readEventStream } from './sse.js';

const PROJECTS = '/api/evidence/projects';

export interface Choices {
  version: 1;
  runtime: 'agent_cli' | 'api_key';
  provider: string;
  model: string | null;
  effort: string | null;
}

export interface Member {
  file_id: string;
  version_id: string;
  original_name: string;
  format: 'pdf' | 'txt' | 'md';
  sha256: string;
}

export interface Note {
  note_id: number;
  file_id: string;
  version_id: string;
  kind: 'plain' | 'passage';
  body: string;
  anchor: { page: number; start: number; end: number; quote: string } | null;
}

export interface SelectionLimits {
  memberships_min: number;
  memberships_max: number;
  distinct_pages: number;
  segments: number;
  notes: number;
  note_codepoints: number;
  notes_bytes: number;
  source_bytes: number;
  source_codepoints: number;
  instruction_codepoints: number;
  instruction_bytes: number;
}

export type Segment = { kind: 'page'; page: number } | { kind: 'passage'; page: number; start_codepoint: number; end_codepoint: number };

export interface Selection {
  file_id: string;
  version_id: string;
  segments: Segment[];
}

export interface Source {
  source_id: string;
  file_id: string;
  version_id: string;
  file_sha256: string;
  filename: string;
  page: number;
  page_count: number | null;
  segment: 'page' | 'passage';
  start_codepoint: number;
  end_codepoint: number;
  text: string;
}

export interface RequestPayload {
  mode: 'answer' | 'briefing';
  instruction: string;
  choices: Choices;
  sources: Source[];
  notes: { note_id: number; file_id: string; text: string }[];
  limitations: string[];
}

export interface Preview {
  preview_id: string;
  runtime_id: string;
  expires_at_utc: string;
  request_sha256: string;
  payload: RequestPayload;
  connection: { available: boolean; reason: string | null };
  system_bytes: number;
  system_sha256: string;
  user_bytes: number;
  user_sha256: string;
  limitations: string[];
}

export type AnswerState = 'admitted' | 'running' | 'succeeded' | 'refused' | 'failed' | 'cancelled' | 'interrupted';
export const LIVE: ReadonlySet<AnswerState> = new Set(['admitted', 'running']);

export interface Citation {
  source_id: string;
  quote: string;
  /** Codepoint offsets within the source's text (end exclusive). */
  start: number;
  end: number;
}

export type Item =
  | { kind: 'source_statement' | 'interpretation'; text: string; citations: Citation[] }
  | { kind: 'note_summary'; text: string; note_ids: (number | string)[] }
  | { kind: 'question'; text: string };

export interface Result {
  status: 'answer' | 'insufficient_evidence';
  sections: { kind: string; title?: string; items: Item[] }[];
  limitations: string[];
}

export interface Answer {
  answer_id: string;
  runtime_id: string;
  request_sha256: string;
  state: AnswerState;
  request: RequestPayload;
  partial_text: string;
  output: { validated: true; result: Result } | { validated: false; text: string; reason: string; detail: string } | null;
  usage: { input_tokens: number | null; output_tokens: number | null; provenance: string };
  reported_model: { model: string; source: string } | null;
  error: { reason: string; message: string } | null;
  created_at_utc: string;
  finished_at_utc: string | null;
}

export interface AnswerRow {
  answer_id: string;
  request_sha256: string;
  state: AnswerState;
  mode: 'answer' | 'briefing';
  choices: Choices;
  source_count: number;
  note_count: number;
  validated: boolean | null;
  created_at_utc: string;
}

export interface History {
  answers: AnswerRow[];
  through_id: number;
  next_after_id: number | null;
  has_more: boolean;
  total: number;
  selection_limits: SelectionLimits;
}

export interface Frame {
  sequence: number;
  type: 'snapshot' | 'progress' | 'partial' | 'report' | 'terminal';
  answer_id: string;
  request_sha256: string;
  runtime_id: string;
  data: unknown;
}

interface Paged<T> {
  items: T[];
  next_after_id: number | null;
  has_more: boolean;
}

/** Every page of a project list (ids ascend under the first page's ceiling). */
async function all<T>(path: string, vaultId: string, signal?: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  let after: number | undefined;
  let through: number | undefined;
  for (;;) {
    const page = await api.get<Paged<T> & { through_id: number }>(path, { headers: LIBRARY, signal, query: { expected_vault_id: vaultId, after_id: after, through_id: through, limit: 50 } });
    out.push(...page.items);
    if (!page.has_more || page.next_after_id === null) return out;
    after = page.next_after_id;
    through = page.through_id;
  }
}

export const answers = {
  vaultId: async (signal?: AbortSignal) => (await api.get<{ vault: { vault_id: string } | null }>('/api/library', { headers: LIBRARY, signal })).vault?.vault_id ?? null,
  project: evidence.show,
  members: (vaultId: string, projectId: string, signal?: AbortSignal) => all<Member>(`${PROJECTS}/${projectId}/files`, vaultId, signal),
  notes: (vaultId: string, projectId: string, signal?: AbortSignal) => all<Note>(`${PROJECTS}/${projectId}/notes`, vaultId, signal),
  history: (vaultId: string, projectId: string, afterId?: number, throughId?: number, signal?: AbortSignal) =>
    api.get<History>(`${PROJECTS}/${projectId}/answers`, { headers: LIBRARY, signal, query: { expected_vault_id: vaultId, after_id: afterId, through_id: throughId } }),
  show: async (vaultId: string, projectId: string, answerId: string, signal?: AbortSignal) =>
    (await api.get<{ answer: Answer }>(`${PROJECTS}/${projectId}/answers/${answerId}`, { headers: LIBRARY, signal, query: { expected_vault_id: vaultId } })).answer,
  preview: (projectId: string, body: { expected_vault_id: string; expected_runtime_id: string; expected_revision: number; selections: Selection[]; note_ids: number[]; instruction: string; mode: string; choices: Choices }) =>
    api.post<Preview>(`${PROJECTS}/${projectId}/answer-previews`, body, { headers: LIBRARY }),
  /** The consent: bound to the preview's identity and the hash the person saw. */
  send: async (vaultId: string, projectId: string, preview: Preview) =>
    (
      await api.post<{ answer: Answer; replayed: boolean }>(
        `${PROJECTS}/${projectId}/answers`,
        { expected_vault_id: vaultId, expected_runtime_id: preview.runtime_id, preview_id: preview.preview_id, request_sha256: preview.request_sha256, confirmed: true },
        { headers: LIBRARY },
      )
    ).answer,
  /** The answer's one event stream; aborting `signal` disconnects, which the service takes as a cancel. */
  follow: (vaultId: string, projectId: string, answer: { answer_id: string; runtime_id: string }, onFrame: (frame: Frame) => void, signal: AbortSignal) =>
    readEventStream(`${PROJECTS}/${projectId}/answers/${answer.answer_id}/events`, (m: EventSourceMessage) => onFrame(JSON.parse(m.data) as Frame), {
      signal,
      headers: LIBRARY,
      query: { expected_vault_id: vaultId, expected_runtime_id: answer.runtime_id },
    }),
  cancel: (vaultId: string, projectId: string, answer: { answer_id: string; runtime_id: string }) =>
    api.post(`${PROJECTS}/${projectId}/answers/${answer.answer_id}/cancel`, { expected_vault_id: vaultId, expected_runtime_id: answer.runtime_id }, { headers: LIBRARY }),
  export: (vaultId: string, projectId: string, answerId: string, format: 'zip' | 'html') =>
    download('GET', `${PROJECTS}/${projectId}/answers/${answerId}/export`, format === 'zip' ? 'selected-answer.zip' : 'selected-answer.html', { headers: LIBRARY, query: { expected_vault_id: vaultId, format } }),
};

/** The runtime id of the backend this tab talks to (previews and sends are bound to it). */
export const runtimeId = async (signal?: AbortSignal) => (await api.get<{ identity: { runtime_id: string } }>('/api/health', { signal })).identity.runtime_id;
