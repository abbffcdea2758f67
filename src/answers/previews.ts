/**
 * Previews: what a person reads before consenting. Assembling reads the
 * selected pages and never calls a model. The store is in memory only (an
 * expired or restart-lost preview cannot be revived): one assembly at a time
 * within its time limit, a bounded number of live previews and resident
 * bytes, each expiring after its time to live.
 */
import type { Context } from '../context.js';
import { isSvcError } from '../errors.js';
import { evidenceOf } from '../evidence/service.js';
import { availabilityOf, routeDigest } from '../assistant/connections.js';
import { assemble, REQUEST_LIMITATIONS, type AssembleInput, type Assembly } from './assemble.js';
import { SYSTEM_BYTES, SYSTEM_SHA256 } from './prompt.js';
import * as reasons from './reasons.js';
import { answersOf } from './service.js';
import type { AnswerChoices, PreviewView } from './types.js';

export interface PreviewEntry {
  view: PreviewView;
  input: Omit<AssembleInput, 'signal'>;
  projectRow: number;
  /** Where the chosen connection was reached at preview time (private): send refuses if it moved. */
  routeDigest: string;
  expiresAt: number;
  residentBytes: number;
}

function purge(ctx: Context): void {
  const now = ctx.clock.now().getTime();
  const store = answersOf(ctx).previews;
  for (const [id, entry] of store) if (entry.expiresAt <= now) store.delete(id);
}

/** A live preview, or 404 (expired, lost or unknown). */
export function livePreview(ctx: Context, previewId: string): PreviewEntry {
  purge(ctx);
  const entry = answersOf(ctx).previews.get(previewId);
  if (!entry) throw reasons.previewNotFound();
  return entry;
}

export function dropPreview(ctx: Context, previewId: string): void {
  answersOf(ctx).previews.delete(previewId);
}

function viewOf(ctx: Context, a: Assembly, previewId: string, expiresAt: number): PreviewView {
  const selected = new Set(a.notes.map((n) => n.id));
  const repo = evidenceOf(ctx).repo();
  const available = repo.notesOfFiles(a.project.id, a.files.map((f) => f.file.id)).filter((n) =>
    a.files.some((f) => f.file.file_id === n.file_id && f.file.version_id === n.version_id),
  );
  return {
    contract_version: 1,
    preview_id: previewId,
    vault_id: a.vault.vault_id,
    project_id: a.project.project_id,
    project_revision: a.project.revision,
    runtime_id: ctx.runtimeId,
    expires_at_utc: new Date(expiresAt).toISOString(),
    request_sha256: a.facts.request_sha256,
    payload: a.payload,
    files: a.files.map((f) => ({
      file_id: f.file.file_id,
      version_id: f.file.version_id,
      filename: f.file.original_name,
      media_type: f.file.media_type,
      file_sha256: f.file.sha256,
      pages: f.pages,
      page_count: f.page_count,
    })),
    available_notes: available.map((n) => ({ note_id: n.id, file_id: n.file_id, version_id: n.version_id, kind: n.kind, text: n.body, selected: selected.has(n.id) })),
    connection: availabilityOf(ctx, a.payload.choices.runtime, a.payload.choices.provider),
    system_bytes: SYSTEM_BYTES,
    system_sha256: SYSTEM_SHA256,
    user_bytes: a.facts.user_bytes,
    user_sha256: a.facts.user_sha256,
    limitations: REQUEST_LIMITATIONS,
  };
}

/**
 * Assemble and keep a preview.
 * @example const p = await createPreview(ctx, { expectedVaultId, projectId, expectedRevision: 3, selections, noteIds: [], instruction, mode: 'answer', choices })
 */
export async function createPreview(ctx: Context, input: AssembleInput): Promise<PreviewView> {
  const answers = answersOf(ctx);
  const { limits } = answers;
  purge(ctx);
  if (answers.assembling) throw reasons.previewBusy();
  if (answers.previews.size >= limits.livePreviews) throw reasons.previewLimit(limits.livePreviews);
  answers.assembling = true;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), limits.assemblyMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout.signal]) : timeout.signal;
  try {
    let assembly: Assembly;
    try {
      assembly = await assemble(ctx, limits, { ...input, signal });
    } catch (err) {
      if (timeout.signal.aborted && isSvcError(err) && err.reason === 'cancelled') throw reasons.assemblyTimeout(limits.assemblyMs);
      throw err;
    }
    if (timeout.signal.aborted) throw reasons.assemblyTimeout(limits.assemblyMs);
    const previewId = ctx.random.uuid();
    const expiresAt = ctx.clock.now().getTime() + limits.previewTtlMs;
    const view = viewOf(ctx, assembly, previewId, expiresAt);
    const residentBytes = Buffer.byteLength(JSON.stringify(view), 'utf8') + assembly.facts.user_bytes;
    let resident = residentBytes;
    for (const e of answers.previews.values()) resident += e.residentBytes;
    if (resident > limits.previewResidentBytes) throw reasons.previewMemory(limits.previewResidentBytes);
    const { signal: _s, ...kept } = input;
    const route = routeDigest(ctx, assembly.payload.choices.runtime, assembly.payload.choices.provider);
    answers.previews.set(previewId, { view, input: kept, projectRow: assembly.project.id, routeDigest: route, expiresAt, residentBytes });
    return view;
  } finally {
    clearTimeout(timer);
    answers.assembling = false;
  }
}
