/**
 * From a selection to the immutable request payload: every selected page of
 * the exact member versions is read again through the Evidence extraction
 * contracts, passages are cut by global codepoint offsets, identical segments
 * collapse, and every limit is checked. Any unreadable or over-limit part
 * refuses the whole request; nothing is truncated. Previews and sends share
 * this, so a send rebuilds exactly what its preview showed.
 */
import type { Context } from '../context.js';
import { choicesProblems } from '../assistant/choices.js';
import { codepointLength, hasLoneSurrogate, sliceCodepoints } from '../evidence/codepoints.js';
import { extractPage } from '../evidence/extract.js';
import type { PageText } from '../wire/evidence.js';
import { findVersion } from '../evidence/members.js';
import * as evidenceReasons from '../evidence/reasons.js';
import type { NoteRow, ProjectRow } from '../evidence/repo.js';
import { evidenceOf, requireProject } from '../evidence/service.js';
import type { FileRow, VaultRow } from '../library/repo.js';
import type { AnswerLimits } from './limits.js';
import { promptFacts, sourceSha256, SYSTEM_BYTES, type PromptFacts } from './prompt.js';
import * as reasons from './reasons.js';
import type { AnswerChoices, AnswerMode, RequestNote, RequestPayload, RequestSource, SelectionInput } from './types.js';

export const REQUEST_LIMITATIONS = [
  'Only the selected excerpts and notes are sent; the model sees nothing else of the files or the project.',
  'A citation proves only that its quote is the selected text, never that the quote supports the claim.',
  'No text on a page is not evidence that the page has no content.',
  'Token counts are only what the runtime reported; billing is unknown.',
];

export interface AssembleInput {
  expectedVaultId: string;
  projectId: string;
  expectedRevision: number;
  selections: SelectionInput[];
  noteIds: number[];
  instruction: string;
  mode: AnswerMode;
  choices: AnswerChoices;
  signal?: AbortSignal;
}

export interface SelectedFile {
  file: FileRow;
  pages: number[];
  page_count: number | null;
}

export interface Assembly {
  vault: VaultRow;
  project: ProjectRow;
  payload: RequestPayload;
  facts: PromptFacts;
  files: SelectedFile[];
  notes: NoteRow[];
}

function checkText(limits: AnswerLimits, input: AssembleInput): void {
  const text = input.instruction;
  if (hasLoneSurrogate(text)) throw reasons.instructionInvalid('holds an unpaired surrogate');
  if (text.trim() === '') throw reasons.instructionInvalid('must not be empty');
  if (codepointLength(text) > limits.instructionCodepoints) throw reasons.textLimit('instruction', limits.instructionCodepoints, 'codepoints');
  if (Buffer.byteLength(text, 'utf8') > limits.instructionBytes) throw reasons.textLimit('instruction', limits.instructionBytes, 'bytes');
  const problems = choicesProblems(input.choices);
  if (problems.length) throw reasons.choicesInvalid(problems);
}

function checkShape(limits: AnswerLimits, selections: SelectionInput[]): void {
  if (selections.length < limits.membershipsMin) throw reasons.selectionInvalid(`needs at least ${limits.membershipsMin} file version`, ['body', 'selections']);
  if (selections.length > limits.membershipsMax) throw reasons.selectionLimit('file versions', limits.membershipsMax);
  const seen = new Set<string>();
  const pages = new Set<string>();
  selections.forEach((sel, i) => {
    if (seen.has(sel.file_id)) throw reasons.selectionInvalid('names a file twice; list all its segments under one entry', ['body', 'selections', i, 'file_id']);
    seen.add(sel.file_id);
    if (sel.segments.length === 0) throw reasons.selectionInvalid('has a file with no segment', ['body', 'selections', i, 'segments']);
    for (const seg of sel.segments) pages.add(`${sel.file_id}:${seg.page}`);
  });
  if (pages.size > limits.distinctPages) throw reasons.selectionLimit('distinct pages', limits.distinctPages);
}

function readable(result: PageText, fileId: string, filename: string): string {
  if (result.status === 'extracted' && result.text !== null && result.text !== '') return result.text;
  if (result.status === 'limit_exceeded') throw reasons.selectionPageLimit(fileId, result.requested_page, result.reason);
  // An empty or no-text page (image-only) is refused like any unreadable one: nothing to cite.
  throw reasons.selectionUnreadable(fileId, filename, result.requested_page, result.status === 'extracted' ? 'no_text' : result.status, result.reason);
}

/**
 * Build the payload of a selection (reads pages; throws the first refusal).
 * @example const a = await assemble(ctx, limits, input); a.facts.request_sha256
 */
export async function assemble(ctx: Context, limits: AnswerLimits, input: AssembleInput): Promise<Assembly> {
  checkText(limits, input);
  checkShape(limits, input.selections);
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  const { vault, project } = requireProject(ctx, { expectedVaultId: input.expectedVaultId, projectId: input.projectId });
  if (project.revision !== input.expectedRevision) throw evidenceReasons.revisionConflict(project.revision);
  const files: SelectedFile[] = [];
  const sources: Omit<RequestSource, 'source_id' | 'source_sha256'>[] = [];
  const segmentKeys = new Set<string>();
  for (const [i, sel] of input.selections.entries()) {
    const file = findVersion(ctx, vault.vault_id, { fileId: sel.file_id, versionId: sel.version_id });
    if (!repo.member(project.id, file.id)) throw evidenceReasons.notMember();
    const texts = new Map<number, PageText>();
    for (const [j, seg] of sel.segments.entries()) {
      const loc = ['body', 'selections', i, 'segments', j];
      if (file.format === 'pdf' && seg.page > ev.limits.pdfPages) throw reasons.selectionPageLimit(file.file_id, seg.page, 'pdf_pages');
      let page = texts.get(seg.page);
      if (!page) {
        page = await extractPage(ctx, { vault, file, page: seg.page, signal: input.signal });
        texts.set(seg.page, page);
      }
      const text = readable(page, file.file_id, file.original_name);
      const length = page.codepoint_length ?? codepointLength(text);
      const [start, end] = seg.kind === 'page' ? [0, length] : [seg.start_codepoint, seg.end_codepoint];
      if (seg.kind === 'passage' && !(start >= 0 && start < end && end <= length)) throw reasons.passageOutOfRange(seg.page, length, loc);
      const key = `${file.file_id}:${seg.page}:${start}:${end}`;
      if (segmentKeys.has(key)) continue; // identical segments collapse; overlapping ones stay distinct
      segmentKeys.add(key);
      if (segmentKeys.size > limits.segments) throw reasons.selectionLimit('segments', limits.segments);
      sources.push({
        file_id: file.file_id,
        version_id: file.version_id,
        file_sha256: file.sha256,
        filename: file.original_name,
        media_type: file.media_type,
        page_basis: page.page_basis,
        page: seg.page,
        page_count: page.page_count,
        extraction_contract: page.extraction_contract,
        page_sha256: page.page_sha256!,
        segment: seg.kind === 'page' ? 'page' : 'passage',
        start_codepoint: start,
        end_codepoint: end,
        text: seg.kind === 'page' ? text : sliceCodepoints(text, start, end),
      });
    }
    const first = [...texts.values()][0];
    files.push({ file, pages: [...texts.keys()].sort((a, b) => a - b), page_count: first?.page_count ?? null });
  }
  const allText = sources.map((s) => s.text).join('');
  if (codepointLength(allText) > limits.sourceCodepoints) throw reasons.textLimit('selected source text', limits.sourceCodepoints, 'codepoints');
  if (Buffer.byteLength(allText, 'utf8') > limits.sourceBytes) throw reasons.textLimit('selected source text', limits.sourceBytes, 'bytes');
  const notes = selectNotes(ctx, limits, project, files, input.noteIds);
  const payload: RequestPayload = {
    version: 1,
    kind: 'svc-selected-answer-request',
    mode: input.mode,
    vault_id: vault.vault_id,
    project_id: project.project_id,
    project_revision: project.revision,
    instruction: input.instruction,
    choices: { version: 1, runtime: input.choices.runtime, provider: input.choices.provider, model: input.choices.model, effort: input.choices.effort },
    sources: sources.map((s, i) => ({ source_id: `S${String(i + 1).padStart(2, '0')}`, source_sha256: sourceSha256(s), ...s })),
    notes: notes.map((n): RequestNote => ({ note_id: n.id, file_id: n.file_id, version_id: n.version_id, note_revision: n.revision, text: n.body })),
    limitations: REQUEST_LIMITATIONS,
  };
  const facts = promptFacts(payload);
  if (facts.user_bytes > limits.userBytes) throw reasons.textLimit('user payload', limits.userBytes, 'bytes');
  if (SYSTEM_BYTES > limits.systemBytes) throw reasons.textLimit('system payload', limits.systemBytes, 'bytes');
  return { vault, project, payload, facts, files, notes };
}

function selectNotes(ctx: Context, limits: AnswerLimits, project: ProjectRow, files: SelectedFile[], noteIds: number[]): NoteRow[] {
  if (new Set(noteIds).size !== noteIds.length) throw reasons.selectionInvalid('names a note twice', ['body', 'note_ids']);
  if (noteIds.length > limits.notes) throw reasons.selectionLimit('notes', limits.notes);
  const repo = evidenceOf(ctx).repo();
  const versions = new Set(files.map((f) => `${f.file.file_id}:${f.file.version_id}`));
  let bytes = 0;
  return noteIds.map((id) => {
    const note = repo.note(project.id, id);
    if (!note) throw evidenceReasons.noteNotFound();
    if (!versions.has(`${note.file_id}:${note.version_id}`)) throw reasons.noteNotSelectable(id, note.file_id);
    if (note.body.trim() === '') throw reasons.noteEmpty(id);
    if (codepointLength(note.body) > limits.noteCodepoints) throw reasons.textLimit(`note ${id}`, limits.noteCodepoints, 'codepoints');
    bytes += Buffer.byteLength(note.body, 'utf8');
    if (bytes > limits.notesBytes) throw reasons.textLimit('selected notes', limits.notesBytes, 'bytes');
    return note;
  });
}
