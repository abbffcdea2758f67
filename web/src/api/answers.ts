/**
 * Selected-evidence answers (spec 2, "Selected-answer routes") and the little
 * of the Evidence project they choose from: the project's pinned files and
 * saved notes, the preview of the exact request, the hash-bound send, the
 * answer's event stream, cancel, history and the ZIP and HTML exports. Every
 * call carries the Library header; the browser adds the renderer's Origin.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { AnswerChoices, AnswerFrame, AnswerPage, AnswerRead, AnswerSent, AnswerState, PreviewView, SelectionInput } from '../../../src/wire/answers.js';
import type { MemberView, NoteView } from '../../../src/wire/evidence.js';
import type { Health } from '../../../src/wire/health.js';
import { api } from './client.js';
import { evidence } from './evidence.js';
import { LIBRARY_HEADERS as LIBRARY } from './library.js';
import { download } from './download.js';
import { readEventStream } from './sse.js';

const PROJECTS = '/api/evidence/projects';

export type {
  AnswerChoices as Choices,
  AnswerFrame as Frame,
  AnswerPage as History,
  AnswerState,
  AnswerSummary as AnswerRow,
  AnswerView as Answer,
  Citation,
  OutputItem as Item,
  PreviewView as Preview,
  RequestPayload,
  RequestSource as Source,
  SelectionInput as Selection,
  SelectionLimits,
  SelectionSegment as Segment,
} from '../../../src/wire/answers.js';
export type { MemberView as Member, NoteView as Note } from '../../../src/wire/evidence.js';

/** The states in which an answer is still running (the service's LIVE_STATES). */
export const LIVE: ReadonlySet<AnswerState> = new Set(['admitted', 'running']);

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
  members: (vaultId: string, projectId: string, signal?: AbortSignal) => all<MemberView>(`${PROJECTS}/${projectId}/files`, vaultId, signal),
  notes: (vaultId: string, projectId: string, signal?: AbortSignal) => all<NoteView>(`${PROJECTS}/${projectId}/notes`, vaultId, signal),
  history: (vaultId: string, projectId: string, afterId?: number, throughId?: number, signal?: AbortSignal) =>
    api.get<AnswerPage>(`${PROJECTS}/${projectId}/answers`, { headers: LIBRARY, signal, query: { expected_vault_id: vaultId, after_id: afterId, through_id: throughId } }),
  show: async (vaultId: string, projectId: string, answerId: string, signal?: AbortSignal) =>
    (await api.get<AnswerRead>(`${PROJECTS}/${projectId}/answers/${answerId}`, { headers: LIBRARY, signal, query: { expected_vault_id: vaultId } })).answer,
  preview: (projectId: string, body: { expected_vault_id: string; expected_runtime_id: string; expected_revision: number; selections: SelectionInput[]; note_ids: number[]; instruction: string; mode: string; choices: AnswerChoices }) =>
    api.post<PreviewView>(`${PROJECTS}/${projectId}/answer-previews`, body, { headers: LIBRARY }),
  /** The consent: bound to the preview's identity and the hash the person saw. */
  send: async (vaultId: string, projectId: string, preview: PreviewView) =>
    (
      await api.post<AnswerSent>(
        `${PROJECTS}/${projectId}/answers`,
        { expected_vault_id: vaultId, expected_runtime_id: preview.runtime_id, preview_id: preview.preview_id, request_sha256: preview.request_sha256, confirmed: true },
        { headers: LIBRARY },
      )
    ).answer,
  /** The answer's one event stream; aborting `signal` disconnects, which the service takes as a cancel. */
  follow: (vaultId: string, projectId: string, answer: { answer_id: string; runtime_id: string }, onFrame: (frame: AnswerFrame) => void, signal: AbortSignal) =>
    readEventStream(`${PROJECTS}/${projectId}/answers/${answer.answer_id}/events`, (m: EventSourceMessage) => onFrame(JSON.parse(m.data) as AnswerFrame), {
      signal,
      headers: LIBRARY,
      query: { expected_vault_id: vaultId, expected_runtime_id: answer.runtime_id },
    }),
  cancel: (vaultId: string, projectId: string, answer: { answer_id: string; runtime_id: string }) =>
    api.post<AnswerRead>(`${PROJECTS}/${projectId}/answers/${answer.answer_id}/cancel`, { expected_vault_id: vaultId, expected_runtime_id: answer.runtime_id }, { headers: LIBRARY }),
  export: (vaultId: string, projectId: string, answerId: string, format: 'zip' | 'html') =>
    download('GET', `${PROJECTS}/${projectId}/answers/${answerId}/export`, format === 'zip' ? 'selected-answer.zip' : 'selected-answer.html', { headers: LIBRARY, query: { expected_vault_id: vaultId, format } }),
};

/** The runtime id of the backend this tab talks to (previews and sends are bound to it). */
export const runtimeId = async (signal?: AbortSignal) => (await api.get<Health>('/api/health', { signal })).identity.runtime_id;
