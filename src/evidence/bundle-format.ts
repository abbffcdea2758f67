/**
 * The bundle's two documents: manifest.json (format evidence-bundle,
 * version 1) and notes.md, where every literal text (names, bodies, quotes)
 * sits in a fence longer than any backtick run it holds, so nothing a note
 * says is read as Markdown.
 */
import type { FileRow } from '../library/repo.js';
import type { NoteView } from './views.js';

export type BundleMode = 'metadata' | 'files';

export interface Snapshot {
  bundleId: string;
  capturedAt: string;
  mode: BundleMode;
  vaultId: string;
  project: { project_id: string; name: string; revision: number };
  files: FileRow[];
  notes: NoteView[];
}

export const contentPath = (f: Pick<FileRow, 'file_id' | 'version_id' | 'format'>) => `files/${f.file_id}/${f.version_id}.${f.format}`;

export function manifestOf(s: Snapshot) {
  const files = s.mode === 'files';
  return {
    format: 'evidence-bundle' as const,
    version: 1 as const,
    bundle_id: s.bundleId,
    captured_at_utc: s.capturedAt,
    mode: s.mode,
    vault: { vault_id: s.vaultId },
    project: s.project,
    files: s.files.map((f) => ({
      file_id: f.file_id,
      version_id: f.version_id,
      sha256: f.sha256,
      byte_size: f.byte_size,
      media_type: f.media_type,
      format: f.format,
      original_name: f.original_name,
      content_path: files ? contentPath(f) : null,
      verification: files ? ('verified' as const) : ('not_checked' as const),
    })),
    notes: s.notes,
    verification: files
      ? { status: 'verified' as const, message: 'Each included file was rehashed while it was copied; size and SHA-256 matched the catalog.' }
      : { status: 'not_checked' as const, message: 'Metadata only: the retained bytes were not read or checked.' },
  };
}

function fence(text: string, info = 'text'): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${text}\n${f}`;
}

export function notesMarkdown(s: Snapshot): string {
  const out: string[] = ['# Evidence notes', '', 'Project name (literal text):', '', fence(s.project.name), ''];
  out.push(`- project: ${s.project.project_id}, revision ${s.project.revision}`, `- vault: ${s.vaultId}`, `- captured: ${s.capturedAt}`, `- bundle: ${s.bundleId} (${s.mode})`, '');
  for (const f of s.files) {
    const notes = s.notes.filter((n) => n.file_id === f.file_id && n.version_id === f.version_id);
    out.push(`## File ${f.file_id}`, '', `- version: ${f.version_id}`, `- sha256: ${f.sha256}`, `- ${f.byte_size} bytes, ${f.media_type}`, '', 'Name:', '', fence(f.original_name), '');
    if (notes.length === 0) out.push('No notes.', '');
    for (const n of notes) {
      out.push(`### Note ${n.note_id} (${n.kind}, revision ${n.revision}, ${n.updated_at_utc})`, '');
      if (n.anchor) {
        const a = n.anchor;
        out.push(`- ${a.page_basis} page ${a.page}, codepoints [${a.start}, ${a.end}), contract ${a.extraction_contract}`, `- page sha256: ${a.page_sha256}`, '', 'Quote:', '', fence(a.quote), '');
      }
      out.push('Body:', '', n.body === '' ? '(empty)' : fence(n.body), '');
    }
  }
  return out.join('\n');
}
