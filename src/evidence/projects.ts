/**
 * Evidence projects: create, list, show and rename. A rename is a
 * compare-and-swap on the revision; there is no delete.
 */
import type { Context } from '../context.js';
import { isUuid4 } from '../random.js';
import { libraryOf, requireVault } from '../library/service.js';
import { codepointLength, hasLoneSurrogate } from './codepoints.js';
import * as reasons from './reasons.js';
import { evidenceOf, requireProject, type ProjectRef } from './service.js';
import { CONTRACT_VERSION, pageOf, projectView, type PageRequest } from './views.js';
import type { ProjectAnswer, ProjectChange, ProjectList, ProjectShown } from '../wire/evidence.js';

const CONTROL = /\p{Cc}/u;

/** Literal text, trimmed at its boundaries, 1 to `max` codepoints, one line. */
export function checkProjectName(raw: string, max: number): string {
  const name = raw.trim();
  if (hasLoneSurrogate(name)) throw reasons.nameInvalid('holds an unpaired surrogate');
  const n = codepointLength(name);
  if (n < 1 || n > max) throw reasons.nameInvalid(`must have 1 to ${max} characters after trimming`);
  if (CONTROL.test(name)) throw reasons.nameInvalid('holds a control character');
  return name;
}

/**
 * The project_id a person's word names: the number `svc evidence list` prints (ID),
 * the PROJECT_ID itself, or a project's exact name (trimmed, as names are stored).
 * A number is always taken as the ID; a name two projects share is refused with their IDs.
 * @example resolveProjectId(ctx, vaultId, '2') // the project_id of project 2
 */
export function resolveProjectId(ctx: Context, expectedVaultId: string, ref: string): string {
  const vault = requireVault(libraryOf(ctx), expectedVaultId);
  const repo = evidenceOf(ctx).repo();
  if (isUuid4(ref)) return ref;
  const named = /^[1-9]\d{0,14}$/.test(ref) ? [repo.projectByRow(vault.vault_id, Number(ref))].filter((p) => p !== undefined) : repo.projectsNamed(vault.vault_id, ref.trim());
  if (named.length === 1) return named[0]!.project_id;
  if (named.length === 0) throw reasons.projectNotNamed(ref);
  throw reasons.projectNameShared(ref.trim(), named.map((p) => p.id));
}

/** @example createProject(ctx, { expectedVaultId, name: 'Sleep and memory' }).project.revision // 1 */
export function createProject(ctx: Context, req: { expectedVaultId: string; name: string }): ProjectAnswer {
  const ev = evidenceOf(ctx);
  const vault = requireVault(libraryOf(ctx), req.expectedVaultId);
  const name = checkProjectName(req.name, ev.limits.nameChars);
  const repo = ev.repo();
  const projectId = ctx.random.uuid();
  const row = repo.transaction(() => {
    if (repo.projectCount(vault.vault_id).n >= ev.limits.projects) throw reasons.tooManyProjects(ev.limits.projects);
    repo.insertProject(projectId, vault.vault_id, name, ctx.nowIso());
    return repo.project(vault.vault_id, projectId)!;
  });
  return { contract_version: CONTRACT_VERSION, vault_id: vault.vault_id, project: projectView(row) };
}

export function listProjects(ctx: Context, req: { expectedVaultId: string } & PageRequest): ProjectList {
  const ev = evidenceOf(ctx);
  const vault = requireVault(libraryOf(ctx), req.expectedVaultId);
  const repo = ev.repo();
  return repo.transaction(() => {
    const afterId = req.afterId ?? 0;
    const throughId = req.throughId ?? repo.projectCount(vault.vault_id).max_id;
    const limit = req.limit ?? ev.limits.listDefault;
    const rows = repo.projectPage(vault.vault_id, { afterId, throughId, limit: limit + 1 });
    const { page, paging } = pageOf(rows, limit, afterId, throughId, repo.projectTotal(vault.vault_id, throughId));
    return { contract_version: CONTRACT_VERSION, vault_id: vault.vault_id, items: page.map(projectView), ...paging };
  });
}

/** The project with its current counts. */
export function showProject(ctx: Context, ref: ProjectRef): ProjectShown {
  const repo = evidenceOf(ctx).repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, ref);
    return {
      contract_version: CONTRACT_VERSION,
      vault_id: vault.vault_id,
      project: projectView(project),
      counts: { files: repo.memberCount(project.id).n, notes: repo.noteCount(project.id).n },
    };
  });
}

export function renameProject(ctx: Context, req: ProjectRef & { expectedRevision: number; name: string }): ProjectChange {
  const ev = evidenceOf(ctx);
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    if (project.revision !== req.expectedRevision) throw reasons.revisionConflict(project.revision);
    const name = checkProjectName(req.name, ev.limits.nameChars);
    // The same name again changes nothing: revision and timestamps stay.
    if (name === project.name) return { contract_version: CONTRACT_VERSION, vault_id: vault.vault_id, changed: false, project: projectView(project) };
    if (!repo.rename(project.id, req.expectedRevision, name, ctx.nowIso())) throw reasons.revisionConflict(project.revision);
    return { contract_version: CONTRACT_VERSION, vault_id: vault.vault_id, changed: true, project: projectView(repo.project(vault.vault_id, project.project_id)!) };
  });
}
