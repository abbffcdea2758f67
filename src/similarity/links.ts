/**
 * Reading links: what else looks like the same work (kind same_work) or a
 * version of the same research (kind related_version), for one document or a
 * page of results; the scan status; and a collapse preview that says which
 * ids a collapse would fold into which (same-work links only; nothing is
 * folded, ever, here).
 */
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { documentExists, documentSummaries, existingDocumentIds } from './repo.js';
import { evidenceSentence } from './link-evidence.js';
import { LINK_KINDS, LINK_METHODS, linkFeatures } from './link-rules.js';
import { linkScanHolder, resumableCheckpoint } from './link-scan.js';
import { latestScan, linkCounts, linkDocsByIds, linksOf, type LinkRow } from './links-repo.js';
import { interruptOrphanedRuns } from './recovery.js';
import { withoutOwnerProcess } from '../claims/rows.js';
import type { CollapsePreview, LinksAnswer, LinksForDocuments, LinkView } from '../wire/links.js';

export const FOR_DOCUMENTS_MAX = 500;

function views(ctx: Context, ids: number[]): Map<number, LinkView[]> {
  const rows = linksOf(ctx.db, ids);
  const wanted = new Set(ids);
  const others = [...new Set(rows.flatMap((r) => [r.document_a, r.document_b]))];
  const info = documentSummaries(ctx.db, others);
  const out = new Map<number, LinkView[]>(ids.map((id) => [id, []]));
  const add = (from: number, to: number, r: LinkRow) => {
    if (!wanted.has(from)) return;
    const s = info.get(to);
    const evidence = JSON.parse(r.evidence_json) as Record<string, unknown>;
    out.get(from)!.push({
      document_id: to,
      kind: r.kind,
      method: r.method,
      score: r.score,
      evidence,
      evidence_text: evidenceSentence(evidence),
      title: s?.title ?? null,
      year: s?.year ?? null,
      doi: s?.doi ?? null,
      arxiv_id: s?.arxiv_id ?? null,
      sources: s?.sources ?? [],
      created_at_utc: r.created_at_utc,
    });
  };
  for (const r of rows) {
    add(r.document_a, r.document_b, r);
    add(r.document_b, r.document_a, r);
  }
  for (const list of out.values()) list.sort((a, b) => b.score - a.score || a.document_id - b.document_id);
  return out;
}

/** What else looks like the same work as one document; an empty list says why. */
export function documentLinks(ctx: Context, documentId: number): LinksAnswer {
  if (!documentExists(ctx.db, documentId)) throw notFound('document_not_found', `No document ${documentId}.`);
  const links = views(ctx, [documentId]).get(documentId)!;
  let reason: string | null = null;
  let message: string | null = null;
  if (links.length === 0) {
    const scan = latestScan(ctx.db);
    if (!scan) [reason, message] = ['no_scan_yet', 'No link scan has run yet (svc links scan).'];
    else if (scan.state === 'running') [reason, message] = ['scan_running', 'A link scan is running; nothing is linked to this paper so far.'];
    else [reason, message] = ['none_found', 'The last link scan found nothing that looks like the same work.'];
  }
  return { document_id: documentId, links, reason, message };
}

/** Links for a page of results, keyed by document id (every id asked is a key). */
export function linksForDocuments(ctx: Context, ids: number[]): LinksForDocuments {
  const unique = [...new Set(ids)];
  const found = views(ctx, unique);
  const known = existingDocumentIds(ctx.db, unique);
  return {
    links: Object.fromEntries(unique.map((id) => [String(id), found.get(id)!])),
    linked_count: [...found.values()].filter((l) => l.length > 0).length,
    // As collapse-preview and lifecycle/for-documents say: an id not in the corpus is not a paper with no links.
    unknown_ids: unique.filter((id) => !known.has(id)),
  };
}

/**
 * Which of `ids` a collapse would fold, and into which: groups are the
 * connected components of same-work links among the ids (a related version,
 * such as a conference abstract or a thesis, is another work and never
 * folded); each keeps the published
 * version (a DOI that is not a preprint), then the one most sources saw, then
 * the oldest id. An id that is not in the corpus is listed as unknown, never as
 * kept. Nothing is folded.
 */
export function collapsePreview(ctx: Context, ids: number[]): CollapsePreview {
  const unique = [...new Set(ids)];
  const wanted = new Set(unique);
  const parent = new Map<number, number>(unique.map((id) => [id, id]));
  const find = (x: number): number => (parent.get(x) === x ? x : (parent.set(x, find(parent.get(x)!)), parent.get(x)!));
  const inside = linksOf(ctx.db, unique).filter((r) => r.kind === 'same_work' && wanted.has(r.document_a) && wanted.has(r.document_b));
  for (const r of inside) {
    const [a, b] = [find(r.document_a), find(r.document_b)];
    if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
  }
  const methods = new Map<number, Set<string>>();
  for (const r of inside) {
    const root = find(r.document_a);
    methods.set(root, (methods.get(root) ?? new Set()).add(r.method));
  }
  const components = new Map<number, number[]>();
  for (const id of unique) {
    const root = find(id);
    components.set(root, [...(components.get(root) ?? []), id]);
  }
  const info = documentSummaries(ctx.db, unique);
  // Published means a DOI that is not a preprint's, by the same test the scan uses (arXiv, bioRxiv,
  // SSRN, Research Square… DOIs, preprint types and venues), so a preprint server's DOI is never kept
  // over the journal version.
  const published = new Map(linkDocsByIds(ctx.db, unique).map((d) => [d.id, d.doi !== null && !linkFeatures(d).preprint ? 1 : 0]));
  const rank = (id: number) => [published.get(id) ?? 0, info.get(id)?.sources.length ?? 0, -id];
  const better = (a: number, b: number) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! > y[i]! ? a : b;
    return a;
  };
  const groups = [...components.entries()]
    .filter(([, members]) => members.length > 1)
    .map(([root, members]) => {
      const keep = members.reduce(better);
      return { keep, fold: members.filter((m) => m !== keep).sort((a, b) => a - b), methods: [...(methods.get(root) ?? [])].sort() };
    });
  const folded = new Set(groups.flatMap((g) => g.fold));
  return {
    groups,
    fold_ids: [...folded].sort((a, b) => a - b),
    kept_ids: unique.filter((id) => !folded.has(id) && info.has(id)),
    unknown_ids: unique.filter((id) => !info.has(id)),
    folded_nothing: true,
    note: 'A preview only: no document was folded, merged or deleted.',
  };
}

export function linkStatus(ctx: Context) {
  // A scan whose process went away reads interrupted, not running.
  interruptOrphanedRuns(ctx);
  const holder = linkScanHolder(ctx);
  const counts = linkCounts(ctx.db);
  const byMethod = Object.fromEntries(LINK_METHODS.map((m) => [m, 0]));
  const byKind = Object.fromEntries(LINK_KINDS.map((k) => [k, 0]));
  for (const c of counts) {
    byMethod[c.method] = (byMethod[c.method] ?? 0) + c.count;
    byKind[c.kind] = (byKind[c.kind] ?? 0) + c.count;
  }
  const scan = latestScan(ctx.db) ?? null;
  return {
    total: counts.reduce((n, c) => n + c.count, 0),
    by_method: byMethod,
    methods: LINK_METHODS,
    by_kind: byKind,
    kinds: LINK_KINDS,
    scan: scan && { ...withoutOwnerProcess(scan), running_here: scan.state === 'running' && holder?.here === true && holder.run_id === scan.id },
    /** The process that runs a scan now (this one or another on the data directory), or null. */
    running_in: holder,
    /** Where the next scan resumes (the last one stopped before its end), or null when it judges everything. */
    next_scan_resumes_after_document_id: resumableCheckpoint(ctx)?.through_document_id ?? null,
  };
}
