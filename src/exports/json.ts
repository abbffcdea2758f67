/**
 * JSON references, version 1 (documented in man/svc-executions.1):
 * {format: "svc-references", version: 1, count, references: [...]} with fixed
 * keys per reference; `id` (the stored document id) only with include_ids.
 */
import type { DocumentView } from '../corpus/read.js';

export function referenceObject(doc: DocumentView, includeIds: boolean) {
  return {
    ...(includeIds ? { id: doc.id } : {}),
    title: doc.title,
    authors: doc.authors.map((a) => ({ name: a.name, given: a.given ?? null, family: a.family ?? null, orcid: a.orcid ?? null })),
    publication_date: doc.publication_date,
    year: doc.year,
    venue: doc.venue,
    doi: doc.doi,
    arxiv_id: doc.arxiv_id,
    pmid: doc.pmid,
    pmcid: doc.pmcid,
    url: doc.url,
    pdf_url: doc.pdf_url,
    type: doc.type,
    is_retracted: doc.is_retracted,
    categories: doc.categories,
    abstract: doc.abstract,
  };
}

export function renderJson(docs: DocumentView[], options: { includeIds?: boolean } = {}): string {
  return JSON.stringify({ format: 'svc-references', version: 1, count: docs.length, references: docs.map((d) => referenceObject(d, options.includeIds ?? false)) }, null, 2) + '\n';
}
