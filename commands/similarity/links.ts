import type { Command } from 'commander';
import { cancelLinkScan, resumableCheckpoint, runLinkScan } from '../../src/similarity/link-scan.js';
import { FOR_DOCUMENTS_MAX, collapsePreview, documentLinks, linkStatus } from '../../src/similarity/links.js';
import { describeHolder } from '../../src/claims/jobs.js';
import { withContext } from '../lib/context.js';
import { onInterrupt, progressBar } from '../lib/bar.js';
import { EXIT } from '../lib/exit-codes.js';
import { idArg, listFlag, usageError } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';

export function register(program: Command, io: Io): void {
  const links = program.command('links').description('near-duplicate links: scan, cancel, status, show DOC_ID, preview IDS (never merges)');
  links
    .command('scan')
    .description('find near-duplicates in the whole corpus (foreground; Ctrl-C stops after the document in flight; refused while a scan runs in any process)')
    .action(() => withContext(io, async (ctx) => {
      const bar = progressBar(io, 'linking');
      let stop = false;
      const release = onInterrupt(io, 'Stopping after the document in flight; links written are kept…', () => (stop = true));
      try {
        const resume = resumableCheckpoint(ctx);
        const scan = await runLinkScan(ctx, { isCancelled: () => stop, onProgress: (p) => bar.update(p.scanned, p.total, `${p.phase}, ${p.links} links`) });
        bar.end();
        const resumed = resume ? ` (resumed the stopped scan: pairs judged through document ${resume.through_document_id} were not judged again)` : '';
        emit(io, { ...scan, ...(resume ? { resumed_after_document_id: resume.through_document_id } : {}) }, () =>
          `Scan #${scan.id} ${scan.state}${resumed}: ${scan.total} documents, ${scan.candidates} candidate pairs judged, ${scan.links_written} links written` +
          (scan.links_removed ? `, ${scan.links_removed} earlier links no longer found removed.` : '.') +
          (scan.state === 'cancelled' ? ' The next scan resumes where this one stopped.' : ''));
        if (scan.state === 'cancelled') io.exitCode = EXIT.interrupted;
      } finally {
        release();
      }
    }));
  links
    .command('cancel')
    .description('ask the running link scan to stop after the document in flight, in whichever process runs it')
    .action(() => withContext(io, (ctx) => {
      const answer = cancelLinkScan(ctx);
      emit(io, answer, () => answer.message);
    }));
  links
    .command('status')
    .description('stored links by kind and method, and the last scan')
    .action(() => withContext(io, (ctx) => {
      const s = linkStatus(ctx);
      emit(io, s, () =>
        [...countsSection('by kind', s.by_kind), ...countsSection('by method', s.by_method), `total ${s.total}`, s.scan ? `last scan #${s.scan.id} ${s.scan.state} (${s.scan.links_written} links written)` : 'no scan yet',
          ...(s.running_in ? [`running in ${describeHolder(s.running_in)}${s.running_in.cancel_requested ? ', stopping' : ''}`] : []),
          ...(s.next_scan_resumes_after_document_id !== null ? [`the next scan resumes after document ${s.next_scan_resumes_after_document_id}`] : [])].join('\n'),
      );
    }));
  links
    .command('show')
    .description('what else looks like the same work (or a related version) as one document, and the evidence')
    .argument('<doc_id>', 'document id')
    .action((raw: string) => {
      const id = idArg(raw, 'document');
      return withContext(io, (ctx) => {
        const answer = documentLinks(ctx, id);
        emit(io, answer, () =>
          answer.links.length === 0
            ? `No links for ${id}: ${answer.message}`
            : answer.links
                .map((l) => `${l.document_id}  ${l.kind} (${l.method}, ${l.score.toFixed(3)})  ${l.year ?? ''}  ${(l.title ?? '').slice(0, 90)}\n    ${l.evidence_text}`)
                .join('\n'),
        );
      });
    });
  links
    .command('preview')
    .description('which of these ids a collapse would fold into which, by same-work links (nothing is folded)')
    .argument('<ids...>', 'document ids, comma- or space-separated')
    .action((raw: string[]) => {
      // `svc links preview 3 7` is as natural as `3,7`: both are taken.
      const ids = raw.flatMap((word) => listFlag(word) ?? []).map((x) => idArg(x, 'document'));
      if (ids.length === 0 || ids.length > FOR_DOCUMENTS_MAX) throw usageError(`Give 1 to ${FOR_DOCUMENTS_MAX} document ids, not ${ids.length}.`);
      return withContext(io, (ctx) => {
        const p = collapsePreview(ctx, ids);
        // An id typed wrong must not read as a paper with no links.
        const unknown = p.unknown_ids.length ? [`Not in the corpus: ${p.unknown_ids.join(', ')}.`] : [];
        emit(io, p, () =>
          (p.groups.length === 0 ? ['Nothing would fold: no same-work links among these ids.', ...unknown] : [...p.groups.map((g) => `keep ${g.keep}, fold ${g.fold.join(', ')} (${g.methods.join(', ')})`), ...unknown, p.note]).join('\n'),
        );
      });
    });
}

/** A titled block of counts, its rows indented under the title, and a blank line after it. */
function countsSection(title: string, counts: Record<string, number>): string[] {
  const rows = table(Object.entries(counts).map(([name, n]) => [name, String(n)]));
  return [title, ...(rows ? rows.split('\n').map((row) => `  ${row}`) : ['  none']), ''];
}
