/**
 * What may be imported: display basenames, the media a name asks for, and the
 * content rules of each media (spec 2 "Import rules").
 */
import { isUtf8 } from 'node:buffer';
import type { LibraryFormat } from './repo.js';
import { containsNul, emptyFile, mediaUnsupported, nameInvalid, notUtf8, pdfEnvelopeMissing } from './reasons.js';

export const MEDIA_TYPES: Record<LibraryFormat, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
};

const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;
const PDF_ENVELOPE = Buffer.from('%PDF-', 'latin1');

/**
 * Check a display basename (1 to `maxChars` characters, no separators, no
 * control characters) and answer the format its extension names.
 * @example formatOfName('Paper.PDF', 255) // 'pdf'
 */
export function formatOfName(name: string, maxChars: number): LibraryFormat {
  const chars = [...name].length;
  if (chars < 1 || chars > maxChars) throw nameInvalid(`it must have 1 to ${maxChars} characters`);
  if (LONE_SURROGATE.test(name)) throw nameInvalid('it holds an unpaired surrogate');
  if (name.includes('/') || name.includes('\\')) throw nameInvalid('it holds a path separator');
  if (CONTROL.test(name)) throw nameInvalid('it holds a control character');
  if (name === '.' || name === '..') throw nameInvalid('it names a directory');
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (ext === 'pdf' || ext === 'txt' || ext === 'md') return ext;
  throw mediaUnsupported();
}

/** The content rules: not empty; PDF starts with %PDF-; TXT and MD are strict UTF-8 without NUL. */
export function checkContent(bytes: Uint8Array, format: LibraryFormat): void {
  if (bytes.byteLength === 0) throw emptyFile();
  if (format === 'pdf') {
    if (bytes.byteLength < PDF_ENVELOPE.length || !PDF_ENVELOPE.equals(bytes.subarray(0, PDF_ENVELOPE.length))) throw pdfEnvelopeMissing();
    return;
  }
  checkText(bytes);
}

export function checkText(bytes: Uint8Array): void {
  if (!isUtf8(bytes)) throw notUtf8();
  if (bytes.indexOf(0) !== -1) throw containsNul();
}
