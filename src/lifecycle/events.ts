/**
 * What a source's current record of a paper says happened to it: retraction
 * notices, the published version of a preprint, a newer version or a
 * correction. Pure: the stored document and the record in, events out.
 */
import type { NormalizedRecord } from '../sources/types.js';
import type { NewEvent, TargetDocument } from './repo.js';

const doiUrl = (doi: string) => `https://doi.org/${doi}`;
const versionNumber = (v: string | undefined) => (v && /^v\d+$/.test(v) ? Number(v.slice(1)) : undefined);

/** Finds corpus documents that are the preprint named by a has-preprint relation. */
export type PreprintFinder = (doi: string | undefined, arxiv: string | undefined) => number[];

export function eventsFrom(doc: TargetDocument, source: string, record: NormalizedRecord, findPreprints: PreprintFinder): NewEvent[] {
  const events: NewEvent[] = [];
  const base = { documentId: doc.id, source };
  let retractionNoticed = false;
  for (const rel of record.relations) {
    const notice = rel.doi ? doiUrl(rel.doi) : rel.url;
    if (rel.kind === 'retracted_by') {
      retractionNoticed = true;
      events.push({ ...base, kind: 'retraction', noticeUrl: notice ?? record.landingUrl ?? (doc.doi ? doiUrl(doc.doi) : `${source}:${record.nativeId}`), noticeDoi: rel.doi ?? null, label: rel.label ?? 'Retraction', eventDate: rel.date ?? null, detail: { relation: rel.kind } });
    } else if ((rel.kind === 'corrected_by' || rel.kind === 'has_version') && notice) {
      events.push({ ...base, kind: 'version_change', noticeUrl: notice, noticeDoi: rel.doi ?? null, label: rel.label ?? (rel.kind === 'corrected_by' ? 'Correction' : 'New version'), eventDate: rel.date ?? null, detail: { relation: rel.kind } });
    } else if (rel.kind === 'preprint_of' && notice) {
      events.push({ ...base, kind: 'preprint_to_published', noticeUrl: notice, noticeDoi: rel.doi ?? null, label: 'Published version', detail: { published_doi: rel.doi ?? null } });
    } else if (rel.kind === 'has_preprint') {
      // The record is the published version; the event belongs to the preprint, when the corpus holds it apart.
      const published = record.doi ?? doc.doi;
      if (!published) continue;
      for (const preprintId of findPreprints(rel.doi, rel.arxiv)) {
        if (preprintId === doc.id) continue;
        events.push({ documentId: preprintId, source, kind: 'preprint_to_published', noticeUrl: doiUrl(published), noticeDoi: published, label: 'Published version', detail: { published_doi: published, published_document_id: doc.id, preprint_doi: rel.doi ?? null } });
      }
    }
  }
  if (record.isRetracted && !retractionNoticed) {
    const notice = record.landingUrl ?? (doc.doi ? doiUrl(doc.doi) : undefined);
    if (notice) events.push({ ...base, kind: 'retraction', noticeUrl: notice, label: `${source} marks the work as retracted`, detail: { flag: 'is_retracted' } });
  }
  if (source === 'arxiv' && record.ids.arxiv) {
    const id = record.ids.arxiv;
    const stored = (JSON.parse(doc.ids_json) as Record<string, string>).arxiv_version;
    const now = record.ids.arxiv_version;
    if (versionNumber(now)! > versionNumber(stored)!) {
      events.push({ ...base, kind: 'version_change', noticeUrl: `https://arxiv.org/abs/${id}${now}`, label: `arXiv ${stored} → ${now}`, detail: { from: stored, to: now } });
    }
    if (record.doi && record.doi !== id) {
      events.push({ ...base, kind: 'preprint_to_published', noticeUrl: doiUrl(record.doi), noticeDoi: record.doi, label: record.venue ?? 'Journal DOI given on arXiv', detail: { published_doi: record.doi, journal_ref: record.venue ?? null } });
    } else if (record.venue) {
      events.push({ ...base, kind: 'preprint_to_published', noticeUrl: `https://arxiv.org/abs/${id}`, label: `Journal reference: ${record.venue}`, detail: { published_doi: null, journal_ref: record.venue } });
    }
  }
  return events;
}
