/**
 * Saved notes: plain notes (a non-blank body) and passage notes (an anchor on
 * exact page text; the body may be empty). Creating a passage note re-reads
 * the verified bytes, recomputes the page hash, range and quote, and only
 * then, in one transaction, rechecks membership, revision and cancellation
 * before inserting. A saved anchor is never re-anchored or moved to another
 * version. Every note change advances the project revision (see
 * man/svc-evidence.1); only the body of a note can be edited.
 */
import type { Context } from '../context.js';
import type { FileRow, VaultRow } from '../library/repo.js';
import { codepointLength, hasLoneSurrogate, sliceCodepoints } from './codepoints.js';
import { basisOf, contractOf, extractPage } from './extract.js';
import { findVersion, requireMember, type VersionSelector } from './members.js';
import * as reasons from './reasons.js';
import type { NewNote, NoteKind, PageBasis, ProjectRow } from './repo.js';
import { evidenceOf, requireProject, type ProjectRef } from './service.js';
import { CONTRACT_VERSION, noteView, pageOf, projectView, type PageRequest } from './views.js';
import type { AnchorInput, NoteCreated, NoteEdited, NotePage } from '../wire/evidence.js';

export function checkBody(body: string, kind: NoteKind, max: number): void {
  if (hasLoneSurrogate(body)) throw reasons.bodyInvalid('holds an unpaired surrogate');
  if (codepointLength(body) > max) throw reasons.bodyInvalid(`may have at most ${max} characters`);
  if (kind === 'plain' && body.trim() === '') throw reasons.bodyEmpty();
}

export function listNotes(ctx: Context, req: ProjectRef & PageRequest & { file?: VersionSelector }): NotePage {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    // Notes outlive their membership, so the filter names any version of this vault.
    const fileRow = req.file ? findVersion(ctx, vault.vault_id, req.file).id : null;
    const afterId = req.afterId ?? 0;
    const throughId = req.throughId ?? repo.noteCount(project.id).max_id;
    const limit = req.limit ?? ev.limits.listDefault;
    const rows = repo.notePage({ projectRow: project.id, fileRow, afterId, throughId, limit: limit + 1 });
    const { page, paging } = pageOf(rows, limit, afterId, throughId, repo.noteTotal(project.id, fileRow, throughId));
    return {
      contract_version: CONTRACT_VERSION,
      vault_id: vault.vault_id,
      project_id: project.project_id,
      project_revision: project.revision,
      file_id: req.file?.fileId ?? null,
      version_id: req.file?.versionId ?? null,
      items: page.map(noteView),
      ...paging,
    };
  });
}

export interface CreateNote extends ProjectRef, VersionSelector {
  expectedRevision: number;
  kind: NoteKind;
  body: string;
  anchor: AnchorInput | null;
  signal?: AbortSignal;
}

function precheck(ctx: Context, req: CreateNote): { vault: VaultRow; project: ProjectRow; file: FileRow } {
  const ev = evidenceOf(ctx);
  const { vault, project } = requireProject(ctx, req);
  if (project.revision !== req.expectedRevision) throw reasons.revisionConflict(project.revision);
  const file = requireMember(ctx, project, vault.vault_id, req);
  if ((req.kind === 'plain') !== (req.anchor === null)) throw reasons.kindAnchorMismatch();
  checkBody(req.body, req.kind, ev.limits.bodyChars);
  if (ev.repo().noteCount(project.id).n >= ev.limits.notesPerProject) throw reasons.tooManyNotes(ev.limits.notesPerProject);
  return { vault, project, file };
}

/** Check a passage anchor against the page read now; answers the verified retained-byte digest. */
async function verifyAnchor(ctx: Context, vault: VaultRow, file: FileRow, a: AnchorInput, signal?: AbortSignal): Promise<string> {
  const max = evidenceOf(ctx).limits.bodyChars;
  if (a.page_basis !== basisOf(file)) throw reasons.anchorInvalid(`must use page_basis ${basisOf(file)} for this file`);
  if (a.start >= a.end) throw reasons.anchorInvalid('needs start < end (end is exclusive)');
  if (hasLoneSurrogate(a.quote)) throw reasons.anchorInvalid('quote holds an unpaired surrogate');
  if (codepointLength(a.quote) > max) throw reasons.anchorInvalid(`quote may have at most ${max} characters`);
  if (a.extraction_contract !== contractOf(file)) throw reasons.contractMismatch(contractOf(file));
  const read = await extractPage(ctx, { vault, file, page: a.page, signal });
  if (read.status === 'limit_exceeded') throw reasons.pageLimit(read.reason);
  if (read.status !== 'extracted' || read.text === null) throw reasons.pageUnreadable(read.status, read.reason);
  if (read.page_sha256 !== a.page_sha256) throw reasons.pageChanged();
  if (a.end > read.codepoint_length!) throw reasons.anchorInvalid(`range ends past the page (${read.codepoint_length} codepoints)`);
  if (sliceCodepoints(read.text, a.start, a.end) !== a.quote) throw reasons.quoteMismatch();
  return read.sha256;
}

/** @example await createNote(ctx, { expectedVaultId, projectId, expectedRevision, fileId, versionId, kind: 'plain', body: 'Check n', anchor: null }) */
export async function createNote(ctx: Context, req: CreateNote): Promise<NoteCreated> {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  const { vault, file } = precheck(ctx, req);
  const contentSha = req.anchor ? await verifyAnchor(ctx, vault, file, req.anchor, req.signal) : null;
  return repo.transaction(() => {
    const { project } = requireProject(ctx, req);
    if (project.revision !== req.expectedRevision) throw reasons.revisionConflict(project.revision);
    requireMember(ctx, project, vault.vault_id, req);
    if (req.signal?.aborted) throw reasons.cancelled();
    if (repo.noteCount(project.id).n >= ev.limits.notesPerProject) throw reasons.tooManyNotes(ev.limits.notesPerProject);
    const now = ctx.nowIso();
    if (!repo.bump(project.id, req.expectedRevision, now)) throw reasons.revisionConflict(project.revision);
    const a = req.anchor;
    const row: NewNote = {
      project_row: project.id,
      file_row: file.id,
      kind: req.kind,
      body: req.body,
      page_basis: a?.page_basis ?? null,
      page: a?.page ?? null,
      extraction_contract: a?.extraction_contract ?? null,
      page_sha256: a?.page_sha256 ?? null,
      start_codepoint: a?.start ?? null,
      end_codepoint: a?.end ?? null,
      quote: a?.quote ?? null,
      content_sha256: contentSha,
      created_at_utc: now,
    };
    const noteId = repo.insertNote(row);
    return {
      contract_version: CONTRACT_VERSION,
      vault_id: vault.vault_id,
      project: projectView(repo.project(vault.vault_id, project.project_id)!),
      note: noteView(repo.note(project.id, noteId)!),
    };
  });
}

export interface EditNote extends ProjectRef {
  expectedRevision: number;
  noteId: number;
  expectedNoteRevision: number;
  body: string;
}

/** Edit the body only (anchor, file and kind never change); the same body again is a no-op. */
export function editNote(ctx: Context, req: EditNote): NoteEdited {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    if (project.revision !== req.expectedRevision) throw reasons.revisionConflict(project.revision);
    const note = repo.note(project.id, req.noteId);
    if (!note) throw reasons.noteNotFound();
    if (note.revision !== req.expectedNoteRevision) throw reasons.noteRevisionConflict(note.revision);
    checkBody(req.body, note.kind, ev.limits.bodyChars);
    let changed = false;
    if (req.body !== note.body) {
      const now = ctx.nowIso();
      if (!repo.bump(project.id, req.expectedRevision, now)) throw reasons.revisionConflict(project.revision);
      if (!repo.editNote(note.id, req.expectedNoteRevision, req.body, now)) throw reasons.noteRevisionConflict(note.revision);
      changed = true;
    }
    return {
      contract_version: CONTRACT_VERSION,
      vault_id: vault.vault_id,
      changed,
      project: projectView(repo.project(vault.vault_id, project.project_id)!),
      note: noteView(repo.note(project.id, note.id)!),
    };
  });
}
