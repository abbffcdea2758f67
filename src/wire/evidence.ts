/**
 * The JSON of Evidence projects as the routes send it (spec 2, "Evidence
 * routes"): projects, their member files and saved notes in contract_version 1
 * envelopes, and one page of the reader with its highlights. Declared once
 * here, for the service and the window alike; imports nothing but wire files.
 */
import type { UncheckedFile } from './library.js';

export type NoteKind = 'plain' | 'passage';
/** physical: a PDF's pages; logical: a text file read as one page. */
export type PageBasis = 'physical' | 'logical';
export type PageStatus = 'extracted' | 'no_text' | 'unsupported' | 'malformed' | 'limit_exceeded' | 'timeout' | 'unavailable';

export interface ProjectView {
  /** The project's row id (sent as it is; project_id names the project). */
  id: number;
  project_id: string;
  name: string;
  revision: number;
  created_at_utc: string;
  updated_at_utc: string;
}

/** A Library file as a project member: the Library's facts about it (not its catalog row or path), and when it joined. */
export interface MemberView extends Omit<UncheckedFile, 'id' | 'relative_path'> {
  member_id: number;
  added_at_utc: string;
}

/** Where a passage note sits: exact page text under a named extraction contract. */
export interface NoteAnchor {
  page_basis: PageBasis;
  page: number;
  extraction_contract: string;
  page_sha256: string;
  start: number;
  end: number;
  quote: string;
  content_sha256: string;
}

/** A passage note's anchor as a new note carries it: the service computes content_sha256. */
export type AnchorInput = Omit<NoteAnchor, 'content_sha256'>;

export interface NoteView {
  note_id: number;
  revision: number;
  file_id: string;
  version_id: string;
  kind: NoteKind;
  body: string;
  anchor: NoteAnchor | null;
  created_at_utc: string;
  updated_at_utc: string;
}

/**
 * A list envelope's paging fields: ids ascend under a fixed ceiling
 * (through_id, the current maximum on the first page); `total` counts the rows
 * at or below that ceiling now.
 */
export interface Paging {
  after_id: number;
  through_id: number;
  limit: number;
  next_after_id: number | null;
  has_more: boolean;
  total: number;
  count_basis: 'rows_at_or_below_through_id';
}

export interface ProjectList extends Paging {
  contract_version: 1;
  vault_id: string;
  items: ProjectView[];
}

export interface ProjectAnswer {
  contract_version: 1;
  vault_id: string;
  project: ProjectView;
}

/** GET …/projects/{project_id}: the project with its current counts. */
export interface ProjectShown extends ProjectAnswer {
  counts: { files: number; notes: number };
}

/** A rename: changed is false when the name was already the project's. */
export interface ProjectChange extends ProjectAnswer {
  changed: boolean;
}

/** Adding or removing a member file. */
export interface MemberChange extends ProjectChange {
  file_id: string;
  version_id: string;
}

export interface MemberPage extends Paging {
  contract_version: 1;
  vault_id: string;
  project_id: string;
  project_revision: number;
  items: MemberView[];
}

export interface NotePage extends Paging {
  contract_version: 1;
  vault_id: string;
  project_id: string;
  project_revision: number;
  /** The file version the list was filtered to, or null for every note of the project. */
  file_id: string | null;
  version_id: string | null;
  items: NoteView[];
}

/** A saved passage shown on the page just read. */
export interface Highlight {
  note_id: number;
  start: number;
  end: number;
  quote: string;
  body: string;
}

export interface NotHighlighted {
  note_id: number;
  start: number;
  end: number;
  /** contract_mismatch, page_hash_mismatch (the page text differs from the one the note was saved on) or page_unreadable. */
  reason: 'contract_mismatch' | 'page_hash_mismatch' | 'page_unreadable';
}

export interface PageHighlights {
  highlights: Highlight[];
  not_highlighted: NotHighlighted[];
}

/** One page of a retained file as text: its status under its contract, and its text when it has one. */
export interface PageText {
  vault_id: string;
  file_id: string;
  version_id: string;
  /** The retained-byte digest the page was read from (the catalog's, verified). */
  sha256: string;
  media_type: string;
  page_basis: PageBasis;
  extraction_contract: string;
  requested_page: number;
  page_count: number | null;
  status: PageStatus;
  reason: string | null;
  message: string | null;
  examined_pages: number[];
  /** Present for extracted and no_text pages only. */
  text: string | null;
  page_sha256: string | null;
  codepoint_length: number | null;
}

/** One page of a member file as the reader shows it: the page's text in its project, and which pages were examined. */
export interface ReaderText extends PageText {
  contract_version: 1;
  project_id: string;
  project_revision: number;
  original_name: string;
  representation: 'text';
  pages: { page: number; status: PageStatus | 'not_examined' }[];
  other_pages: 'not_examined';
}

/** GET …/reader/{file_id} (representation text): the page with the saved passages it can show. */
export type ReaderPage = ReaderText & PageHighlights;

/** A new note, with the project whose revision it advanced. */
export interface NoteCreated extends ProjectAnswer {
  note: NoteView;
}

/** An edited note: changed is false when the body was already the note's. */
export interface NoteEdited extends ProjectChange {
  note: NoteView;
}
