/**
 * Memberships: a project pins exact Library file versions. Add and remove are
 * compare-and-swaps on the project revision; a repeated add or the removal of
 * an absent member is a true no-op (revision and timestamps unchanged).
 * Removing keeps the file, its bytes, links, other projects and every note.
 */
import type { Context } from '../context.js';
import type { FileRow } from '../library/repo.js';
import { libraryOf } from '../library/service.js';
import { fileNotFound, versionMismatch } from '../library/reasons.js';
import * as reasons from './reasons.js';
import type { ProjectRow } from './repo.js';
import { evidenceOf, requireProject, type ProjectRef } from './service.js';
import { CONTRACT_VERSION, memberView, pageOf, projectView, type PageRequest } from './views.js';
import type { MemberChange, MemberPage } from '../wire/evidence.js';

export interface VersionSelector {
  fileId: string;
  versionId: string;
}

/** The Library file of this vault with exactly this version. */
export function findVersion(ctx: Context, vaultId: string, sel: VersionSelector): FileRow {
  const row = libraryOf(ctx).catalog().byFileId(vaultId, sel.fileId);
  if (!row) throw fileNotFound();
  if (row.version_id !== sel.versionId) throw versionMismatch(row.version_id);
  return row;
}

function checkRevision(project: ProjectRow, expected: number): void {
  if (project.revision !== expected) throw reasons.revisionConflict(project.revision);
}

export function listMembers(ctx: Context, req: ProjectRef & PageRequest): MemberPage {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    const afterId = req.afterId ?? 0;
    const throughId = req.throughId ?? repo.memberCount(project.id).max_id;
    const limit = req.limit ?? ev.limits.listDefault;
    const rows = repo.memberPage({ projectRow: project.id, afterId, throughId, limit: limit + 1 }).map((r) => ({ ...r, id: r.member_id }));
    const { page, paging } = pageOf(rows, limit, afterId, throughId, repo.memberTotal(project.id, throughId));
    return {
      contract_version: CONTRACT_VERSION,
      vault_id: vault.vault_id,
      project_id: project.project_id,
      project_revision: project.revision,
      items: page.map(memberView),
      ...paging,
    };
  });
}

type Change = ProjectRef & VersionSelector & { expectedRevision: number };

function receipt(ctx: Context, vaultId: string, project: ProjectRow, changed: boolean, sel: VersionSelector): MemberChange {
  const current = evidenceOf(ctx).repo().project(vaultId, project.project_id)!;
  return { contract_version: CONTRACT_VERSION, vault_id: vaultId, project: projectView(current), changed, file_id: sel.fileId, version_id: sel.versionId };
}

/** @example addMember(ctx, { expectedVaultId, projectId, expectedRevision: 1, fileId, versionId }).changed */
export function addMember(ctx: Context, req: Change) {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    checkRevision(project, req.expectedRevision);
    const file = findVersion(ctx, vault.vault_id, req);
    if (repo.member(project.id, file.id)) return receipt(ctx, vault.vault_id, project, false, req);
    if (repo.memberCount(project.id).n >= ev.limits.membersPerProject) throw reasons.tooManyMembers(ev.limits.membersPerProject);
    const now = ctx.nowIso();
    if (!repo.bump(project.id, req.expectedRevision, now)) throw reasons.revisionConflict(project.revision);
    repo.insertMember(project.id, file.id, now);
    return receipt(ctx, vault.vault_id, project, true, req);
  });
}

export function removeMember(ctx: Context, req: Change) {
  const repo = evidenceOf(ctx).repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    checkRevision(project, req.expectedRevision);
    const file = findVersion(ctx, vault.vault_id, req);
    if (!repo.member(project.id, file.id)) return receipt(ctx, vault.vault_id, project, false, req);
    if (!repo.bump(project.id, req.expectedRevision, ctx.nowIso())) throw reasons.revisionConflict(project.revision);
    repo.deleteMember(project.id, file.id);
    return receipt(ctx, vault.vault_id, project, true, req);
  });
}

/** The membership of this exact version, or the refusal (reader, notes, bundle). */
export function requireMember(ctx: Context, project: ProjectRow, vaultId: string, sel: VersionSelector): FileRow {
  const file = findVersion(ctx, vaultId, sel);
  if (!evidenceOf(ctx).repo().member(project.id, file.id)) throw reasons.notMember();
  return file;
}
