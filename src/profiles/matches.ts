/**
 * Reading matches: a profile's matched papers (paged by limit and offset),
 * which profiles matched a page of papers, and lifecycle findings on a
 * profile's papers. Every answer carries by_basis counts and the glossary,
 * because a basis is meaningless without what it means.
 */
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import type { Relation } from '../sources/types.js';
import { BASES, byBasis, WHAT_A_BASIS_MEANS, type Basis } from './bases.js';
import { matchDocuments, matchNewDocuments } from './match.js';
import * as repo from './repo.js';
import { identityOf, requireProfile } from './service.js';
import * as lifecycleRepo from '../lifecycle/repo.js';
import { eventView } from '../lifecycle/service.js';
import type { DocumentProfileMatch, MatchesForDocuments, ProfileMatch, ProfileMatchesPage } from '../wire/profiles.js';

export const MATCHES_DEFAULT_LIMIT = 25;
export const MATCHES_MAX_LIMIT = 200;
export { BASES };

export function profileMatches(ctx: Context, id: number, page: { limit: number; offset: number; basis?: Basis }): ProfileMatchesPage {
  const row = requireProfile(ctx, id);
  matchNewDocuments(ctx);
  const counts = byBasis(repo.countByBasis(ctx.db, id));
  const total = page.basis ? counts[page.basis] : Object.values(counts).reduce((a, b) => a + b, 0);
  const matches = repo.matchPage(ctx.db, id, page.basis, page.limit, page.offset).map((m): ProfileMatch => ({
    document_id: m.document_id,
    title: m.title,
    publication_date: m.publication_date,
    doi: m.doi,
    basis: m.basis,
    matched_author: m.matched_author,
    evidence: m.evidence,
    matched_at_utc: m.matched_at_utc,
  }));
  return {
    profile_id: id,
    profile_name: row.name,
    ...identityOf(row),
    total,
    limit: page.limit,
    offset: page.offset,
    has_more: page.offset + matches.length < total,
    matches,
    by_basis: counts,
    what_a_basis_means: WHAT_A_BASIS_MEANS,
  };
}

/** Which profiles matched each of these papers, matched afresh so the answer is current. */
export function matchesForDocuments(ctx: Context, ids: number[]): MatchesForDocuments {
  const unique = [...new Set(ids)];
  const missing = unique.filter((id) => !repo.documentExists(ctx.db, id));
  if (missing.length) throw notFound('document_not_found', `No document ${missing.slice(0, 10).join(', ')} in the corpus.`, { document_ids: missing });
  matchNewDocuments(ctx);
  matchDocuments(ctx, unique);
  const documents = unique.map((id) => ({
    document_id: id,
    matches: repo.matchesForDocument(ctx.db, id).map((m): DocumentProfileMatch => ({
      profile_id: m.profile_id,
      profile_name: m.profile_name,
      kind: m.kind,
      basis: m.basis,
      matched_author: m.matched_author,
      evidence: m.evidence,
    })),
  }));
  const counts = byBasis(
    BASES.map((basis) => ({ basis, n: documents.reduce((n, d) => n + d.matches.filter((m) => m.basis === basis).length, 0) })),
  );
  return { documents, by_basis: counts, what_a_basis_means: WHAT_A_BASIS_MEANS };
}

// Relations sources report on a record, in the lifecycle's three kinds (a correction is a version change).
const LIFECYCLE_KINDS: Partial<Record<Relation['kind'], 'retraction' | 'preprint_to_published' | 'version_change'>> = {
  retracted_by: 'retraction',
  corrected_by: 'version_change',
  preprint_of: 'preprint_to_published',
  has_version: 'version_change',
};

function noticeLink(r: Relation): string | null {
  if (r.url) return r.url;
  if (r.doi) return `https://doi.org/${r.doi}`;
  if (r.arxiv) return `https://arxiv.org/abs/${r.arxiv}`;
  return null;
}

/**
 * Lifecycle findings on the profile's matched papers: the events the
 * lifecycle check recorded (retraction, preprint to published, version
 * change, each with its notice link), and what the sources' own records
 * already said (a retraction flag, relations) where no event repeats it.
 * Each finding keeps the basis of the match, since a retraction on a
 * name-only match may be somebody else's.
 */
export function profileLifecycle(ctx: Context, id: number) {
  const row = requireProfile(ctx, id);
  matchNewDocuments(ctx);
  const findings = repo.matchesWithLifecycle(ctx.db, id).flatMap((m) => {
    const base = { document_id: m.document_id, title: m.title, doi: m.doi, basis: m.basis, matched_author: m.matched_author };
    const recorded = lifecycleRepo.eventsOf(ctx.db, m.document_id).map((e) => {
      const v = eventView(e);
      return { ...base, event: v.kind, notice: v.notice_url ?? (v.notice_doi ? `https://doi.org/${v.notice_doi}` : null), notice_label: v.label, event_date: v.event_date, found_by: `lifecycle check (${v.source})` };
    });
    const kinds = new Set(recorded.map((e) => e.event));
    const reported = (JSON.parse(m.relations_json) as Relation[])
      .filter((r) => LIFECYCLE_KINDS[r.kind] && !kinds.has(LIFECYCLE_KINDS[r.kind]!))
      .map((r) => ({ ...base, event: LIFECYCLE_KINDS[r.kind]!, notice: noticeLink(r), notice_label: r.label ?? null, event_date: r.date ?? null, found_by: 'source record' }));
    const flagged =
      m.is_retracted && !kinds.has('retraction') && !reported.some((e) => e.event === 'retraction')
        ? [{ ...base, event: 'retraction' as const, notice: null, notice_label: 'a source marks this record as retracted', event_date: null, found_by: 'source record' }]
        : [];
    return [...recorded, ...flagged, ...reported];
  });
  return {
    profile_id: id,
    profile_name: row.name,
    findings,
    total: findings.length,
    matched_papers: repo.countMatches(ctx.db, id),
    method:
      'Events recorded by the lifecycle check (`svc lifecycle check`) on the papers this profile matched, plus retraction flags and relations (retracted by, corrected by, published as, new version) the sources reported on them.',
    what_a_basis_means: WHAT_A_BASIS_MEANS,
  };
}
