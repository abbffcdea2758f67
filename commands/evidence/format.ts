/** Human views of Evidence answers for `svc evidence`. */
import type { Highlight, NotHighlighted } from '../../src/evidence/index.js';
import { table } from '../lib/io.js';
import { oneLine } from '../lib/words.js';

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

type Marks = { highlights?: Highlight[]; not_highlighted?: NotHighlighted[] };

const WHY_NOT: Record<NotHighlighted['reason'], string> = {
  contract_mismatch: 'saved under another extraction contract',
  page_hash_mismatch: 'saved on other text of this page',
  page_unreadable: 'the page could not be read',
};

/** The saved passage notes of the page: highlights, and those that cannot be shown on this text (never re-anchored). */
function marksText(p: Marks): string[] {
  const out: string[] = [];
  const shown = p.highlights ?? [];
  if (shown.length) {
    out.push('', `Saved passages on this page (${shown.length}):`);
    // One line a passage: its quote and note may span lines, and came from a PDF or a person.
    for (const h of shown) out.push(oneLine(`  #${h.note_id} [${h.start}, ${h.end}) “${h.quote}”${h.body ? `  ${h.body}` : ''}`));
  }
  for (const n of p.not_highlighted ?? []) out.push(`  #${n.note_id} [${n.start}, ${n.end}) not highlighted: ${WHY_NOT[n.reason]} (\`svc evidence notes PROJECT\` shows it as saved)`);
  return out;
}

/**
 * A page with the codepoint offsets a passage note needs: each line as
 * `[start, end)` in Unicode codepoints of the page text (end exclusive),
 * then the passages saved on it.
 */
export function pageText(p: Page & Marks): string {
  const head = `page ${p.requested_page} of ${p.page_count ?? '?'} (${p.page_basis}) · ${p.status}${p.reason ? ` (${p.reason})` : ''} · ${p.extraction_contract}`;
  // A vault folder that is gone: the message already says the ways back (library check would only say it again).
  const next = p.reason === 'vault_unavailable' || p.reason === 'vault_marker_invalid' ? undefined : NEXT[p.status];
  if (p.text === null) return [head, oneLine(p.message ?? 'No text.'), next, ...marksText(p)].filter(Boolean).join('\n');
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
  return [head, `page_sha256 ${p.page_sha256} · ${p.codepoint_length} codepoints`, '', table(lines), ...marksText(p)].join('\n');
}

type NoteLike = { note_id: number; revision: number; kind: string; file_id: string; body: string; anchor: { page: number; start: number; end: number; quote: string } | null };

export function notesText(items: NoteLike[]): string {
  if (items.length === 0) return 'No notes.';
  return items
    .map((n) => {
      const where = n.anchor ? ` p.${n.anchor.page} [${n.anchor.start}, ${n.anchor.end}) “${oneLine(n.anchor.quote)}”` : '';
      return `#${n.note_id} r${n.revision} ${n.kind} ${n.file_id}${where}\n  ${n.body.replace(/\n/g, '\n  ') || '(empty)'}`;
    })
    .join('\n');
}
