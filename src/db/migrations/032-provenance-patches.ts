import type { Migration } from '../migration.js';

/**
 * The record a document's columns describe, as JSON (the keys of a
 * NormalizedRecord that merge stores on the document). A frozen copy: the
 * writer (corpus/provenance-record.ts) computes its patches against exactly
 * this, and a later change of it is a migration of its own.
 */
const canonical = (d: string) => `json_object(
  'title', ${d}title, 'abstract', ${d}abstract, 'authors', json(${d}authors_json), 'publicationDate', ${d}publication_date,
  'datePrecision', ${d}date_precision, 'venue', ${d}venue, 'doi', ${d}doi, 'ids', json(${d}ids_json), 'landingUrl', ${d}landing_url,
  'pdfUrl', ${d}pdf_url, 'categories', json(${d}categories_json), 'license', ${d}license,
  'openAccess', CASE ${d}open_access WHEN 1 THEN json('true') WHEN 0 THEN json('false') END,
  'type', ${d}doc_type, 'isRetracted', CASE WHEN ${d}is_retracted THEN json('true') ELSE json('false') END,
  'relations', json(${d}relations_json))`;

const CANONICAL_COLUMNS =
  'title, abstract, authors_json, publication_date, date_precision, venue, doi, ids_json, landing_url, pdf_url, categories_json, license, open_access, doc_type, is_retracted, relations_json';

/**
 * Ingest at scale (issue 11 item 9): a provenance row without the bytes its
 * document already holds. A first sighting's record (~1.9 kB) mostly repeats
 * the document made from it, and writing those bytes twice was a fifth of a
 * merge. record_base NULL: record_json is the whole record, as before (every
 * row stored before this step stays so). record_base = the row's document:
 * record_json is an RFC 7396 merge patch that turns the document's canonical
 * record (document_canonical_records) into the source's record, so
 * json_patch(canonical, record_json) gives the record back exactly.
 *
 * The patch holds only while the document reads as it did when the row was
 * written, so before that can change the full record is written back:
 * - a document whose described columns change (a later sighting, a lifecycle
 *   retraction) writes out its patched rows first, from the old values;
 * - a row moved to another document (folding two into one) is written out
 *   from the document it came from, which a fold deletes only after the move.
 * A deleted document takes its provenance with it (ON DELETE CASCADE).
 * Readers go through provenance_record_json (corpus/repo.ts).
 */
export const provenancePatches: Migration = {
  version: 32,
  name: 'provenance-patches',
  creates: ['document_canonical_records'],
  up(db) {
    db.exec(`
      ALTER TABLE document_sources ADD COLUMN record_base INTEGER;

      CREATE VIEW document_canonical_records AS SELECT d.id AS id, ${canonical('d.')} AS record FROM documents d;

      CREATE TRIGGER document_sources_patch_base_changes AFTER UPDATE OF ${CANONICAL_COLUMNS} ON documents
      WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract OR old.authors_json IS NOT new.authors_json
        OR old.publication_date IS NOT new.publication_date OR old.date_precision IS NOT new.date_precision OR old.venue IS NOT new.venue
        OR old.doi IS NOT new.doi OR old.ids_json IS NOT new.ids_json OR old.landing_url IS NOT new.landing_url OR old.pdf_url IS NOT new.pdf_url
        OR old.categories_json IS NOT new.categories_json OR old.license IS NOT new.license OR old.open_access IS NOT new.open_access
        OR old.doc_type IS NOT new.doc_type OR old.is_retracted IS NOT new.is_retracted OR old.relations_json IS NOT new.relations_json
      BEGIN
        UPDATE document_sources SET record_json = json_patch(${canonical('old.')}, record_json), record_base = NULL
          WHERE document_id = old.id AND record_base = old.id;
      END;

      CREATE TRIGGER document_sources_patch_moved AFTER UPDATE OF document_id ON document_sources
      WHEN new.record_base IS NOT NULL AND new.record_base IS NOT new.document_id
      BEGIN
        UPDATE document_sources SET record_json = json_patch((SELECT c.record FROM document_canonical_records c WHERE c.id = new.record_base), record_json),
          record_base = NULL WHERE id = new.id;
      END;
    `);
  },
};
