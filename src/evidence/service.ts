/**
 * The Evidence service of one process: its limits and the warm PDF child.
 * Built once per Context (tests configure smaller limits first).
 */
import type { Context } from '../context.js';
import type { VaultRow } from '../library/repo.js';
import { libraryOf, requireVault } from '../library/service.js';
import { DEFAULT_EVIDENCE_LIMITS, type EvidenceLimits } from './limits.js';
import { createPdfPool, type PdfPool } from './pdf-pool.js';
import { projectNotFound } from './reasons.js';
import { repoOf, type EvidenceRepo, type ProjectRow } from './repo.js';

export interface EvidenceOptions {
  limits?: Partial<EvidenceLimits>;
}

export interface Evidence {
  ctx: Context;
  limits: EvidenceLimits;
  repo(): EvidenceRepo;
  /** The PDF child of this process, started on first use. */
  pdf(): PdfPool;
}

const KEY = 'evidence';

function build(ctx: Context, options: EvidenceOptions): Evidence {
  const limits = { ...DEFAULT_EVIDENCE_LIMITS, ...options.limits };
  let pool: PdfPool | undefined;
  ctx.onClose(() => pool?.close());
  return {
    ctx,
    limits,
    repo: () => repoOf(ctx.db),
    pdf: () => (pool ??= createPdfPool(limits)),
  };
}

/** Set limits for this Context before anything else uses Evidence (tests, benchmarks). */
export function configureEvidence(ctx: Context, options: EvidenceOptions): Evidence {
  return ctx.service(KEY, () => build(ctx, options));
}

export function evidenceOf(ctx: Context): Evidence {
  return ctx.service(KEY, () => build(ctx, {}));
}

export interface ProjectRef {
  expectedVaultId: string;
  projectId: string;
}

/** The vault (as expected) and the project in it, or the refusal. */
export function requireProject(ctx: Context, ref: ProjectRef): { vault: VaultRow; project: ProjectRow } {
  const vault = requireVault(libraryOf(ctx), ref.expectedVaultId);
  const project = evidenceOf(ctx).repo().project(vault.vault_id, ref.projectId);
  if (!project) throw projectNotFound();
  return { vault, project };
}
