/**
 * Page extraction under a named contract, reusable by the reader, passage
 * notes and selected-evidence answers: verified bytes in, one page's status
 * and text out. Text files are one logical page read by the Library's text
 * rules (contract `library-text-lf/v1`); a PDF page is parsed by the warm
 * child (contract PDF_CONTRACT). A page that cannot be read is a typed status,
 * never partial text.
 */
import crypto from 'node:crypto';
import type { Context } from '../context.js';
import type { FileRow, VaultRow } from '../library/repo.js';
import { openVerified, readVerifiedBytes, type VerifiedFile } from '../library/read.js';
import { readText } from '../library/text.js';
import { isSvcError } from '../errors.js';
import { codepointLength } from './codepoints.js';
import type { PoolOutcome } from './pdf-pool.js';
import { PDF_CONTRACT } from './pdf-protocol.js';
import * as reasons from './reasons.js';
import { evidenceOf } from './service.js';
import type { PageBasis, PageStatus, PageText } from '../wire/evidence.js';

export { PDF_CONTRACT } from './pdf-protocol.js';
export const TEXT_CONTRACT = 'library-text-lf/v1';

export type { PageBasis, PageStatus } from '../wire/evidence.js';

export const contractOf = (file: Pick<FileRow, 'format'>) => (file.format === 'pdf' ? PDF_CONTRACT : TEXT_CONTRACT);
export const basisOf = (file: Pick<FileRow, 'format'>): PageBasis => (file.format === 'pdf' ? 'physical' : 'logical');
export const sha256Text = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** Verified-byte failures of the Library that make a page unavailable (not a refusal of the request). */
const UNAVAILABLE = new Set(['file_missing', 'file_size_mismatch', 'file_hash_mismatch', 'path_changed', 'unsafe_path', 'vault_unavailable', 'vault_marker_invalid', 'vault_io_error']);
const TEXT_LIMITS = new Set(['text_too_large', 'too_many_lines', 'text_json_too_large']);
const TEXT_MALFORMED = new Set(['not_utf8', 'contains_nul']);

function base(vault: VaultRow, file: FileRow, page: number): PageText {
  return {
    vault_id: vault.vault_id,
    file_id: file.file_id,
    version_id: file.version_id,
    sha256: file.sha256,
    media_type: file.media_type,
    page_basis: basisOf(file),
    extraction_contract: contractOf(file),
    requested_page: page,
    page_count: null,
    status: 'unavailable',
    reason: null,
    message: null,
    examined_pages: [],
    text: null,
    page_sha256: null,
    codepoint_length: null,
  };
}

function withText(result: PageText, status: 'extracted' | 'no_text', text: string): PageText {
  return { ...result, status, text, page_sha256: sha256Text(text), codepoint_length: codepointLength(text), examined_pages: [result.requested_page] };
}

function refusedBy(result: PageText, err: unknown): PageText {
  if (!isSvcError(err)) throw err;
  if (UNAVAILABLE.has(err.reason)) return { ...result, status: 'unavailable', reason: err.reason, message: err.message };
  if (TEXT_LIMITS.has(err.reason)) return { ...result, status: 'limit_exceeded', reason: err.reason, message: err.message };
  if (TEXT_MALFORMED.has(err.reason)) return { ...result, status: 'malformed', reason: err.reason, message: err.message };
  throw err;
}

export interface ExtractRequest {
  vault: VaultRow;
  /** The exact file version (from the catalog; membership is the caller's check). */
  file: FileRow;
  /** 1-based; text files have only page 1. */
  page: number;
  signal?: AbortSignal;
}

/**
 * Read one page of a retained file version. Throws only for requests that
 * are wrong (a page past the end: 422; cancellation: 499); whatever the file
 * itself prevents is a typed status in the result.
 * @example const r = await extractPage(ctx, { vault, file, page: 3 }); if (r.status === 'extracted') use(r.text)
 */
export async function extractPage(ctx: Context, req: ExtractRequest): Promise<PageText> {
  const { vault, file, page } = req;
  const limits = evidenceOf(ctx).limits;
  const result = base(vault, file, page);
  if (file.format !== 'pdf') {
    if (page !== 1) throw reasons.pageOutOfRange(1);
    try {
      const envelope = await readText(ctx, { expectedVaultId: vault.vault_id, fileId: file.file_id, expectedVersionId: file.version_id });
      return { ...withText({ ...result, page_count: 1 }, 'extracted', envelope.text) };
    } catch (err) {
      return refusedBy({ ...result, page_count: 1 }, err);
    }
  }
  if (file.byte_size > limits.pdfBytes) {
    return { ...result, status: 'limit_exceeded', reason: 'pdf_bytes', message: `A PDF is read in the app only up to ${limits.pdfBytes} bytes.` };
  }
  // Every read proves the file on disk is the recorded one (its SHA-256 included). The child may
  // hold the document parsed from bytes of that very hash; only when it does not are the bytes
  // read again from the verified descriptor, checked again and sent.
  let verified: VerifiedFile;
  try {
    verified = await openVerified(ctx, { expectedVaultId: vault.vault_id, fileId: file.file_id, expectedVersionId: file.version_id });
  } catch (err) {
    return refusedBy(result, err);
  }
  let outcome: PoolOutcome;
  try {
    if (req.signal?.aborted) throw reasons.cancelled();
    const bytes = async () => {
      const b = await readVerifiedBytes(verified, limits.pdfBytes);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    };
    outcome = await evidenceOf(ctx).pdf().extract({ sha256: verified.row.sha256, bytes }, page, req.signal);
  } finally {
    verified.close();
  }
  switch (outcome.kind) {
    case 'source_failed':
      return refusedBy(result, outcome.error);
    case 'cancelled':
      throw reasons.cancelled();
    case 'timeout':
      return { ...result, status: 'timeout', reason: 'parse_timeout', message: `The page was not parsed within ${limits.pdfTimeoutMs} ms.`, examined_pages: [page] };
    case 'unavailable':
      return { ...result, status: 'unavailable', reason: outcome.reason, message: outcome.message, examined_pages: outcome.reason === 'parser_exited' ? [page] : [] };
    case 'limit':
      return { ...result, status: 'limit_exceeded', reason: outcome.reason, message: outcome.message, examined_pages: [page] };
    case 'answer': {
      const a = outcome.answer;
      const known = { ...result, page_count: a.page_count };
      if (a.status === 'out_of_range') throw reasons.pageOutOfRange(a.page_count ?? 0);
      if ((a.status === 'extracted' || a.status === 'no_text') && typeof a.text === 'string') {
        if (codepointLength(a.text) > limits.pdfCodepoints) {
          return { ...known, status: 'limit_exceeded', reason: 'page_codepoints', message: `The page text has more than ${limits.pdfCodepoints} codepoints.`, examined_pages: [page] };
        }
        return withText(known, a.status, a.text);
      }
      return { ...known, status: a.status as PageStatus, reason: a.reason, message: a.message, examined_pages: a.examined ? [page] : [] };
    }
  }
}

/**
 * Every page of the result's file: the requested one with its status, every other one not_examined.
 * Only up to `maxPages` (the reader's page limit): the count is what the PDF declares, and a page
 * tree of shared subtrees declares a billion pages in a few kilobytes. A file past the limit is
 * not read in the app; its other pages are named by other_pages alone.
 */
export function pageStatuses(result: PageText, maxPages: number): { page: number; status: PageStatus | 'not_examined' }[] {
  // With the count unknown, or past the limit, only the requested page is named one by one.
  if (result.page_count === null || result.page_count > maxPages) return [{ page: result.requested_page, status: result.status }];
  const count = result.page_count;
  const out: { page: number; status: PageStatus | 'not_examined' }[] = [];
  for (let p = 1; p <= count; p++) out.push({ page: p, status: p === result.requested_page ? result.status : 'not_examined' });
  return out;
}

