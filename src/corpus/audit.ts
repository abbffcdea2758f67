/**
 * The corpus audit (`svc corpus audit`): finds documents that hold records of
 * more than one work, folded by a title alone before ingest confirmed title
 * matches (title-match.ts), and splits them. A command, not a start-up
 * migration: it reads every document with several records, which takes a
 * while on a large corpus, and the server must start fast.
 *
 * Within a document, two records are one work when they share an identifier
 * (DOI, arXiv id, PMID, PMCID) or when their titles, class of work, years and
 * authors confirm it as ingest now requires. Records joined by neither, even
 * through others, are another work: a dataset, software, thesis or notice
 * under the paper's title, a namesake's paper of the same title, or a second
 * DOI. The document keeps its id for the work it is really about: a paper
 * before any other class, then the group holding the document's DOI, then the
 * group of the source that described it, then the group seen first. Every
 * other group becomes a new document (split.ts).
 */
import type { Context } from '../context.js';
import type { NormalizedRecord } from '../sources/types.js';
import { compareAuthors, peopleOf } from './people.js';
import { readDocumentRow, documentsWithSeveralRecords, sourceRecordsOf, type SourceRecordRow } from './repo.js';
import { splitDocument, type RecordGroup } from './split.js';
import { compareTitles, titleForms } from './titles.js';
import { workClass, type WorkClass } from './work-class.js';

export interface AuditedRecord {
  source: string;
  native_id: string;
  type: string | null;
}

export interface AuditedGroup {
  /** The new document's id (null in a dry run). */
  document_id: number | null;
  class: WorkClass;
  title: string;
  records: AuditedRecord[];
}

export interface AuditSplit {
  /** The document, kept for the work it is really about. */
  document_id: number;
  kept: Omit<AuditedGroup, 'document_id'>;
  split_off: AuditedGroup[];
}

export interface AuditReport {
  dry_run: boolean;
  /** Documents with more than one record, all read. */
  checked: number;
  splits: AuditSplit[];
  /** Records moved to new documents. */
  records_moved: number;
}

export interface AuditOptions {
  dryRun?: boolean;
  onProgress?: (checked: number) => void;
}

const PAGE = 500;
const yearOf = (r: NormalizedRecord) => (r.publicationDate ? Number(r.publicationDate.slice(0, 4)) : null);
const classOf = (r: NormalizedRecord) => workClass(r.type, r.title, r.venue, r.doi);

/** Two records of one document that are one work: an identifier in common, or a title match ingest would confirm. */
function oneWork(a: NormalizedRecord, b: NormalizedRecord): boolean {
  const same = (x: string | undefined, y: string | undefined) => x !== undefined && x === y;
  if (same(a.doi, b.doi) || same(a.ids.arxiv, b.ids.arxiv) || same(a.ids.pmid, b.ids.pmid) || same(a.ids.pmcid, b.ids.pmcid)) return true;
  const differ = (x: string | undefined, y: string | undefined) => x !== undefined && y !== undefined && x !== y;
  if (differ(a.doi, b.doi) || differ(a.ids.arxiv, b.ids.arxiv) || differ(a.ids.pmid, b.ids.pmid) || differ(a.ids.pmcid, b.ids.pmcid)) return false;
  if (classOf(a) !== classOf(b)) return false;
  const [ya, yb] = [yearOf(a), yearOf(b)];
  if (ya !== null && yb !== null && Math.abs(ya - yb) > 1) return false;
  if (compareTitles(titleForms(a.title), titleForms(b.title)).relation !== 'equal') return false;
  return compareAuthors(peopleOf(a.authors), peopleOf(b.authors)).verdict === 'agree';
}

/** The records of a document in groups of one work each (connected by oneWork). */
function groupsOf(rows: SourceRecordRow[]): SourceRecordRow[][] {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      if (find(i) !== find(j) && oneWork(rows[i]!.record, rows[j]!.record)) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, SourceRecordRow[]>();
  rows.forEach((row, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), row]));
  return [...groups.values()];
}

/** Which group the document stays with (see the file comment). */
function keptIndex(groups: SourceRecordRow[][], doi: string | null, metaSource: string | null | undefined): number {
  const rank = (g: SourceRecordRow[]) => [
    g.some((r) => classOf(r.record) === 'paper') ? 1 : 0,
    doi !== null && g.some((r) => r.record.doi === doi) ? 1 : 0,
    g.some((r) => r.source === metaSource) ? 1 : 0,
    -groups.indexOf(g),
  ];
  let best = 0;
  for (let i = 1; i < groups.length; i++) {
    const [x, y] = [rank(groups[i]!), rank(groups[best]!)];
    const k = x.findIndex((v, n) => v !== y[n]);
    if (k >= 0 && x[k]! > y[k]!) best = i;
  }
  return best;
}

const describe = (g: SourceRecordRow[]) => ({
  class: classOf(g[0]!.record),
  title: g[0]!.record.title,
  records: g.map((r) => ({ source: r.source, native_id: r.native_id, type: r.record.type ?? null })),
});

const asGroup = (g: SourceRecordRow[]): RecordGroup => ({ rowIds: g.map((r) => r.id), sources: g.map((r) => r.source), records: g.map((r) => r.record) });

/**
 * Audit the whole corpus; splits unless `dryRun`. Answers what was found and done.
 * @example auditCorpus(ctx, { dryRun: true }).splits.length // documents that would be split
 */
export function auditCorpus(ctx: Context, options: AuditOptions = {}): AuditReport {
  const dryRun = options.dryRun === true;
  const report: AuditReport = { dry_run: dryRun, checked: 0, splits: [], records_moved: 0 };
  for (let afterId = 0; ; ) {
    const ids = documentsWithSeveralRecords(ctx.db, afterId, PAGE);
    if (ids.length === 0) break;
    for (const documentId of ids) {
      report.checked++;
      const rows = sourceRecordsOf(ctx.db, documentId);
      const groups = groupsOf(rows);
      if (groups.length < 2) continue;
      const doc = readDocumentRow(ctx.db, documentId)!;
      const kept = groups.splice(keptIndex(groups, doc.doi, doc.meta_source), 1)[0]!;
      const newIds = dryRun ? groups.map(() => null) : splitDocument(ctx.db, documentId, asGroup(kept), groups.map(asGroup), ctx.nowIso());
      report.splits.push({ document_id: documentId, kept: describe(kept), split_off: groups.map((g, i) => ({ document_id: newIds[i]!, ...describe(g) })) });
      report.records_moved += groups.reduce((n, g) => n + g.length, 0);
    }
    afterId = ids[ids.length - 1]!;
    options.onProgress?.(report.checked);
  }
  return report;
}
