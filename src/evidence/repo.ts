/**
 * The Evidence SQL: prepared once per database connection. Rows join the
 * Library's file records for the file metadata they show.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { FileRow } from '../library/repo.js';
import type { NoteKind, PageBasis } from '../wire/evidence.js';

export type { NoteKind, PageBasis } from '../wire/evidence.js';

export interface ProjectRow {
  id: number;
  project_id: string;
  vault_id: string;
  name: string;
  revision: number;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface MemberRow extends FileRow {
  member_id: number;
  added_at_utc: string;
}

export interface NoteRow {
  id: number;
  project_row: number;
  file_row: number;
  file_id: string;
  version_id: string;
  kind: NoteKind;
  body: string;
  revision: number;
  page_basis: PageBasis | null;
  page: number | null;
  extraction_contract: string | null;
  page_sha256: string | null;
  start_codepoint: number | null;
  end_codepoint: number | null;
  quote: string | null;
  content_sha256: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

export type NewNote = Omit<NoteRow, 'id' | 'file_id' | 'version_id' | 'revision' | 'updated_at_utc'>;

export interface PageQuery {
  projectRow: number;
  afterId: number;
  throughId: number;
  limit: number;
}

const PROJECT = 'id, project_id, vault_id, name, revision, created_at_utc, updated_at_utc';
const FILE = 'f.id, f.file_id, f.version_id, f.vault_id, f.original_name, f.format, f.media_type, f.byte_size, f.sha256, f.relative_path, f.imported_at_utc';
const MEMBER = `m.id AS member_id, m.added_at_utc, ${FILE}`;
const NOTE = `n.id, n.project_row, n.file_row, f.file_id, f.version_id, n.kind, n.body, n.revision, n.page_basis, n.page, n.extraction_contract,
  n.page_sha256, n.start_codepoint, n.end_codepoint, n.quote, n.content_sha256, n.created_at_utc, n.updated_at_utc`;

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  const q = {
    project: s(`SELECT ${PROJECT} FROM evidence_projects WHERE vault_id = ? AND project_id = ?`),
    projectByRow: s(`SELECT ${PROJECT} FROM evidence_projects WHERE vault_id = ? AND id = ?`),
    projectsNamed: s(`SELECT ${PROJECT} FROM evidence_projects WHERE vault_id = ? AND name = ? ORDER BY id LIMIT 10`),
    projectCount: s('SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS max_id FROM evidence_projects WHERE vault_id = ?'),
    projectTotal: s('SELECT COUNT(*) AS n FROM evidence_projects WHERE vault_id = ? AND id <= ?'),
    memberTotal: s('SELECT COUNT(*) AS n FROM evidence_project_files WHERE project_row = ? AND id <= ?'),
    noteTotal: s('SELECT COUNT(*) AS n FROM evidence_notes WHERE project_row = @projectRow AND id <= @throughId AND (@fileRow IS NULL OR file_row = @fileRow)'),
    projectPage: s(`SELECT ${PROJECT} FROM evidence_projects WHERE vault_id = @vaultId AND id > @afterId AND id <= @throughId ORDER BY id LIMIT @limit`),
    insertProject: s(`INSERT INTO evidence_projects (project_id, vault_id, name, revision, created_at_utc, updated_at_utc) VALUES (?, ?, ?, 1, ?, ?)`),
    bump: s('UPDATE evidence_projects SET revision = revision + 1, updated_at_utc = ? WHERE id = ? AND revision = ?'),
    rename: s('UPDATE evidence_projects SET name = ?, revision = revision + 1, updated_at_utc = ? WHERE id = ? AND revision = ?'),
    memberCount: s('SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS max_id FROM evidence_project_files WHERE project_row = ?'),
    memberPage: s(`SELECT ${MEMBER} FROM evidence_project_files m JOIN library_files f ON f.id = m.file_row
      WHERE m.project_row = @projectRow AND m.id > @afterId AND m.id <= @throughId ORDER BY m.id LIMIT @limit`),
    member: s(`SELECT ${MEMBER} FROM evidence_project_files m JOIN library_files f ON f.id = m.file_row WHERE m.project_row = ? AND m.file_row = ?`),
    hasPdfMember: s(`SELECT 1 FROM evidence_project_files m JOIN library_files f ON f.id = m.file_row WHERE m.project_row = ? AND f.format = 'pdf' LIMIT 1`),
    insertMember: s('INSERT INTO evidence_project_files (project_row, file_row, added_at_utc) VALUES (?, ?, ?)'),
    deleteMember: s('DELETE FROM evidence_project_files WHERE project_row = ? AND file_row = ?'),
    noteCount: s('SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS max_id FROM evidence_notes WHERE project_row = ?'),
    noteCountOf: s('SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS max_id FROM evidence_notes WHERE project_row = ? AND file_row = ?'),
    notePage: s(`SELECT ${NOTE} FROM evidence_notes n JOIN library_files f ON f.id = n.file_row
      WHERE n.project_row = @projectRow AND n.id > @afterId AND n.id <= @throughId AND (@fileRow IS NULL OR n.file_row = @fileRow)
      ORDER BY n.id LIMIT @limit`),
    note: s(`SELECT ${NOTE} FROM evidence_notes n JOIN library_files f ON f.id = n.file_row WHERE n.project_row = ? AND n.id = ?`),
    notesOfFiles: s(`SELECT ${NOTE} FROM evidence_notes n JOIN library_files f ON f.id = n.file_row
      WHERE n.project_row = ? AND n.file_row IN (SELECT value FROM json_each(?)) ORDER BY n.id`),
    insertNote: s(`INSERT INTO evidence_notes (project_row, file_row, kind, body, revision, page_basis, page, extraction_contract, page_sha256,
        start_codepoint, end_codepoint, quote, content_sha256, created_at_utc, updated_at_utc)
      VALUES (@project_row, @file_row, @kind, @body, 1, @page_basis, @page, @extraction_contract, @page_sha256,
        @start_codepoint, @end_codepoint, @quote, @content_sha256, @created_at_utc, @created_at_utc)`),
    editNote: s('UPDATE evidence_notes SET body = ?, revision = revision + 1, updated_at_utc = ? WHERE id = ? AND revision = ?'),
  };
  const count = (st: Statement, ...args: unknown[]) => st.get(...args) as { n: number; max_id: number };
  return {
    project: (vaultId: string, projectId: string) => q.project.get(vaultId, projectId) as ProjectRow | undefined,
    projectByRow: (vaultId: string, id: number) => q.projectByRow.get(vaultId, id) as ProjectRow | undefined,
    projectsNamed: (vaultId: string, name: string) => q.projectsNamed.all(vaultId, name) as ProjectRow[],
    projectCount: (vaultId: string) => count(q.projectCount, vaultId),
    projectTotal: (vaultId: string, throughId: number) => (q.projectTotal.get(vaultId, throughId) as { n: number }).n,
    memberTotal: (projectRow: number, throughId: number) => (q.memberTotal.get(projectRow, throughId) as { n: number }).n,
    noteTotal: (projectRow: number, fileRow: number | null, throughId: number) => (q.noteTotal.get({ projectRow, fileRow, throughId }) as { n: number }).n,
    projectPage: (vaultId: string, p: Omit<PageQuery, 'projectRow'>) => q.projectPage.all({ vaultId, ...p }) as ProjectRow[],
    insertProject: (projectId: string, vaultId: string, name: string, at: string) => void q.insertProject.run(projectId, vaultId, name, at, at),
    /** Advance the revision when it is still `expected`; answers whether it did. */
    bump: (projectRow: number, expected: number, at: string) => q.bump.run(at, projectRow, expected).changes === 1,
    rename: (projectRow: number, expected: number, name: string, at: string) => q.rename.run(name, at, projectRow, expected).changes === 1,
    memberCount: (projectRow: number) => count(q.memberCount, projectRow),
    memberPage: (p: PageQuery) => q.memberPage.all(p) as MemberRow[],
    member: (projectRow: number, fileRow: number) => q.member.get(projectRow, fileRow) as MemberRow | undefined,
    /** Whether this project holds a PDF. */
    hasPdfMember: (projectRow: number) => q.hasPdfMember.get(projectRow) !== undefined,
    insertMember: (projectRow: number, fileRow: number, at: string) => void q.insertMember.run(projectRow, fileRow, at),
    deleteMember: (projectRow: number, fileRow: number) => q.deleteMember.run(projectRow, fileRow).changes === 1,
    noteCount: (projectRow: number, fileRow?: number) => (fileRow === undefined ? count(q.noteCount, projectRow) : count(q.noteCountOf, projectRow, fileRow)),
    notePage: (p: PageQuery & { fileRow: number | null }) => q.notePage.all(p) as NoteRow[],
    note: (projectRow: number, noteId: number) => q.note.get(projectRow, noteId) as NoteRow | undefined,
    notesOfFiles: (projectRow: number, fileRows: number[]) => q.notesOfFiles.all(projectRow, JSON.stringify(fileRows)) as NoteRow[],
    insertNote: (row: NewNote) => Number(q.insertNote.run(row).lastInsertRowid),
    editNote: (noteRow: number, expected: number, body: string, at: string) => q.editNote.run(body, at, noteRow, expected).changes === 1,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}

export type EvidenceRepo = ReturnType<typeof prepare>;

const cache = new WeakMap<Database, EvidenceRepo>();

export function repoOf(db: Database): EvidenceRepo {
  let repo = cache.get(db);
  if (!repo) {
    repo = prepare(db);
    cache.set(db, repo);
  }
  return repo;
}
