import type { Command } from 'commander';
import { auditCorpus, type AuditReport, type AuditedRecord } from '../../src/corpus/audit.js';
import { withContext } from '../lib/context.js';
import { emit, type Io } from '../lib/io.js';
import { oneLine } from '../lib/words.js';

const CLASS_NAMES: Record<string, string> = { 'review-of-work': 'review of another work', abstract: 'conference abstract' };
const records = (list: AuditedRecord[]) => list.map((r) => `${r.source} ${r.native_id}${r.type ? ` (${r.type})` : ''}`).join(', ');

function human(report: AuditReport): string {
  const verb = report.dry_run ? 'would split' : 'split';
  if (report.splits.length === 0) return `Checked ${report.checked} documents with more than one record: each holds one work; nothing to split.`;
  const lines = [`Checked ${report.checked} documents with more than one record; ${verb} ${report.splits.length}, ${report.records_moved} record${report.records_moved === 1 ? '' : 's'} moved to new documents.`];
  for (const s of report.splits) {
    lines.push('', `Document ${s.document_id} keeps the ${CLASS_NAMES[s.kept.class] ?? s.kept.class} "${oneLine(s.kept.title).slice(0, 90)}": ${records(s.kept.records)}`);
    for (const g of s.split_off) lines.push(`  ${g.document_id === null ? 'would become a new document' : `new document ${g.document_id}`}, a ${CLASS_NAMES[g.class] ?? g.class}: ${records(g.records)}`);
  }
  if (report.dry_run) lines.push('', 'Nothing was changed (--dry-run).');
  else lines.push('', 'Provenance moved whole with each record; reading-queue entries, profile matches, Library links and links stayed with the kept documents.');
  return lines.join('\n');
}

export function register(program: Command, io: Io): void {
  const corpus = program.command('corpus').description('the corpus itself: audit');
  corpus
    .command('audit')
    .description('find documents that hold more than one work (folded by a title alone) and split them; --dry-run only says what it would do')
    .option('--dry-run', 'report what would be split, change nothing')
    .action((o: { dryRun?: boolean }) => withContext(io, (ctx) => {
      const report = auditCorpus(ctx, { dryRun: o.dryRun === true });
      emit(io, report, () => human(report));
    }));
}
