/**
 * The reader route's service: one page of a member file version, as text
 * (every file) or as the verified PDF bytes for the window's own renderer.
 */
import type { Context } from '../context.js';
import type { FileRow } from '../library/repo.js';
import { openVerified, readVerifiedBytes } from '../library/read.js';
import { extractPage, pageStatuses } from './extract.js';
import { requireMember, type VersionSelector } from './members.js';
import * as reasons from './reasons.js';
import { repoOf } from './repo.js';
import { evidenceOf, requireProject, type ProjectRef } from './service.js';
import { CONTRACT_VERSION } from './views.js';
import { tooLarge } from '../errors.js';
import type { ReaderText } from '../wire/evidence.js';

export interface ReadRequest extends ProjectRef, VersionSelector {
  page: number;
  signal?: AbortSignal;
}

/**
 * The text representation: the page's status under its extraction contract,
 * its text and SHA-256 when it has one, the page count when known, the
 * examined pages, and every other page as not_examined (one by one up to the
 * page limit, beyond it by other_pages alone).
 * @example (await readPage(ctx, { expectedVaultId, projectId, fileId, versionId, page: 1 })).status
 */
export async function readPage(ctx: Context, req: ReadRequest): Promise<ReaderText> {
  const { vault, project } = requireProject(ctx, req);
  const file = requireMember(ctx, project, vault.vault_id, req);
  const result = await extractPage(ctx, { vault, file, page: req.page, signal: req.signal });
  const { text, page_sha256, codepoint_length, ...rest } = result;
  return {
    contract_version: CONTRACT_VERSION,
    project_id: project.project_id,
    project_revision: project.revision,
    original_name: file.original_name,
    representation: 'text' as const,
    ...rest,
    pages: pageStatuses(result, evidenceOf(ctx).limits.pdfPages),
    other_pages: 'not_examined' as const,
    text,
    page_sha256,
    codepoint_length,
  };
}

/**
 * Start the PDF child as soon as a server has a PDF to read: when a PDF joins
 * a project or a project holding one is shown (the reader opens its project
 * first). Its start (seconds on a loaded machine) is then not paid by the
 * first page. Nothing is read: every page still verifies its file when it is
 * asked for.
 */
export function warmPdfReader(ctx: Context, ref: ProjectRef): void {
  const { project } = requireProject(ctx, ref);
  if (repoOf(ctx.db).hasPdfMember(project.id)) evidenceOf(ctx).pdf().warm();
}

export interface PdfBytes {
  file: FileRow;
  vaultId: string;
  projectId: string;
  bytes: Buffer;
}

/**
 * The pdf representation: the verified bytes of a member PDF (at most the
 * reader's 16 MiB) for the window's local renderer, which draws the page.
 */
export async function readPdfBytes(ctx: Context, req: ReadRequest): Promise<PdfBytes> {
  const limits = evidenceOf(ctx).limits;
  const { vault, project } = requireProject(ctx, req);
  const file = requireMember(ctx, project, vault.vault_id, req);
  if (file.format !== 'pdf') throw reasons.representationUnsupported();
  if (req.page > limits.pdfPages) throw reasons.pageOutOfRange(limits.pdfPages);
  if (file.byte_size > limits.pdfBytes) throw tooLarge('pdf_too_large', `A PDF is read in the app only up to ${limits.pdfBytes} bytes.`, { limit_bytes: limits.pdfBytes });
  const verified = await openVerified(ctx, { expectedVaultId: vault.vault_id, fileId: file.file_id, expectedVersionId: file.version_id });
  let bytes: Buffer;
  try {
    bytes = await readVerifiedBytes(verified, limits.pdfBytes);
  } finally {
    verified.close();
  }
  return { file, vaultId: vault.vault_id, projectId: project.project_id, bytes };
}
