/**
 * The text read (spec 2 "Text read"): only retained TXT and MD, verified, then
 * read again into a bounded buffer and checked again before decoding.
 */
import crypto from 'node:crypto';
import type { Context } from '../context.js';
import { checkText } from './content.js';
import { readBounded } from './fs-safe.js';
import * as reasons from './reasons.js';
import { findFile, openVerified, type VersionRef } from './read.js';
import { libraryOf } from './service.js';
import type { TextEnvelope } from '../wire/library.js';

/** CRLF and lone CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Logical lines of normalized text: every LF ends one, and what follows the
 * last LF is one more, so a trailing LF counts a final empty line ("a" is 1,
 * "a\n" is 2, "" is 1).
 */
export function countLines(normalized: string): number {
  let lines = 1;
  for (let i = normalized.indexOf('\n'); i !== -1; i = normalized.indexOf('\n', i + 1)) lines++;
  return lines;
}

/**
 * GET /api/library/files/{file_id}/text.
 * @example (await readText(ctx, { expectedVaultId, fileId, expectedVersionId })).line_count
 */
export async function readText(ctx: Context, ref: VersionRef): Promise<TextEnvelope> {
  const limits = libraryOf(ctx).limits;
  // Refuse what the catalog already shows to be unreadable before touching the bytes.
  const { row: recorded } = findFile(ctx, ref);
  if (recorded.version_id !== ref.expectedVersionId) throw reasons.versionMismatch(recorded.version_id);
  if (recorded.format === 'pdf') throw reasons.notText();
  if (recorded.byte_size > limits.textBytes) throw reasons.textTooLarge(limits.textBytes);

  const verified = await openVerified(ctx, ref);
  let bytes: Buffer;
  try {
    bytes = readBounded(verified.fd, limits.textBytes + 1);
  } finally {
    verified.close();
  }
  const { vault, row } = verified;
  if (bytes.length > limits.textBytes) throw reasons.textTooLarge(limits.textBytes);
  if (bytes.length !== row.byte_size) throw reasons.sizeMismatch();
  // At most 256 KiB: hashed in one step.
  if (crypto.createHash('sha256').update(bytes).digest('hex') !== row.sha256) throw reasons.hashMismatch();
  checkText(bytes);

  const text = normalizeNewlines(bytes.toString('utf8'));
  const lineCount = countLines(text);
  if (lineCount > limits.textLines) throw reasons.tooManyLines(limits.textLines);
  const envelope: TextEnvelope = {
    version: 1,
    kind: 'svc-library-text',
    vault_id: vault.vault_id,
    file_id: row.file_id,
    version_id: row.version_id,
    sha256: row.sha256,
    media_type: row.media_type,
    encoding: 'utf-8',
    normalization: 'crlf-cr-to-lf-v1',
    byte_size: row.byte_size,
    line_count: lineCount,
    text,
  };
  if (Buffer.byteLength(JSON.stringify(envelope), 'utf8') > limits.textJsonBytes) throw reasons.textJsonTooLarge(limits.textJsonBytes);
  return envelope;
}
