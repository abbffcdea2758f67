/** Human views of Evidence answers for `svc evidence`. */
import { table } from './io.js';

type Page = {
  requested_page: number; page_count: number | null; page_basis: string; status: string; reason: string | null; message: string | null;
  extraction_contract: string; text: string | null; page_sha256: string | null; codepoint_length: number | null;
};

/** What a person can do about a page that was not read, by its status. */
const NEXT: Record<string, string> = {
  unsupported: 'svc reads no encrypted PDF (not even with an empty password): save an unencrypted copy (e.g. print to PDF) and import that.',
  malformed: 'The PDF did not parse cleanly: re-save it (e.g. print to PDF) and import the new copy.',
  limit_exceeded: 'It is over a reader limit (LIMITS in svc-evidence(1)); read it in a desktop viewer, or import a smaller copy.',
  timeout: 'Try again; if the page keeps timing out, re-save the PDF and import the new copy.',
  unavailable: 'Run `svc library check` to see whether the retained file is missing or changed.',
};

/**
 * A page with the codepoint offsets a passage note needs: each line as
 * `[start, end)` in Unicode codepoints of the page text (end exclusive).
 */
export function pageText(p: Page): string {
  const head = `page ${p.requested_page} of ${p.page_count ?? '?'} (${p.page_basis}) · ${p.status}${p.reason ? ` (${p.reason})` : ''} · ${p.extraction_contract}`;
  if (p.text === null) return [head, p.message ?? 'No text.', NEXT[p.status]].filter(Boolean).join('\n');
  if (p.status === 'no_text' || p.text === '') {
    // Said plainly rather than an empty [0, 0) line: nothing to quote, and no claim that the page is blank.
    return `${head}\nNo text could be extracted from this page (an image-only or scanned page?). That is not evidence the page is empty; it only means no passage on it can be quoted, anchored or sent in an answer. A plain note (svc evidence note add --body) still can be.`;
  }
  const lines: string[][] = [];
  let offset = 0;
  for (const line of p.text.split('\n')) {
    const n = [...line].length;
    lines.push([`[${offset}, ${offset + n})`, line]);
    offset += n + 1;
  }
  return [head, `page_sha256 ${p.page_sha256} · ${p.codepoint_length} codepoints`, '', table(lines)].join('\n');
}

type NoteLike = { note_id: number; revision: number; kind: string; file_id: string; body: string; anchor: { page: number; start: number; end: number; quote: string } | null };

export function notesText(items: NoteLike[]): string {
  if (items.length === 0) return 'No notes.';
  return items
    .map((n) => {
      const where = n.anchor ? ` p.${n.anchor.page} [${n.anchor.start}, ${n.anchor.end}) “${n.anchor.quote}”` : '';
      return `#${n.note_id} r${n.revision} ${n.kind} ${n.file_id}${where}\n  ${n.body.replace(/\n/g, '\n  ') || '(empty)'}`;
    })
    .join('\n');
}
