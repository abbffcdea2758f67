/**
 * Merging records into the corpus: one document per work, whatever number of
 * sources and runs found it. A record joins the document its source already
 * gave (same source and native id), else the first document matching its
 * identity keys in order (DOI, arXiv, PMID, PMCID, title+year+first author),
 * else it becomes a new document. Joining fills what the document lacks and
 * never takes an identifier another document holds. One transaction per batch.
 */
import type { Database, Statement } from 'better-sqlite3';
import { titleKey, firstAuthorKey } from '../sources/normalize.js';
import type { Author, NormalizedRecord, Relation } from '../sources/types.js';
import { identityKeys } from './identity.js';

export interface MergeInput {
  record: NormalizedRecord;
  /** Position of the record in its source's answer. */
  rank: number;
}

export interface MergeResult {
  documentId: number;
  isNew: boolean;
}

interface DocumentRow {
  id: number;
  abstract: string | null;
  authors_json: string;
  publication_date: string | null;
  date_precision: string | null;
  venue: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  pmcid: string | null;
  ids_json: string;
  landing_url: string | null;
  pdf_url: string | null;
  categories_json: string;
  license: string | null;
  open_access: number | null;
  doc_type: string | null;
  is_retracted: number;
  relations_json: string;
}

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    byNative: s('SELECT document_id FROM document_sources WHERE source = ? AND native_id = ?').pluck(),
    byDoi: s('SELECT id FROM documents WHERE doi = ?').pluck(),
    byArxiv: s('SELECT id FROM documents WHERE arxiv_id = ?').pluck(),
    byPmid: s('SELECT id FROM documents WHERE pmid = ?').pluck(),
    byPmcid: s('SELECT id FROM documents WHERE pmcid = ?').pluck(),
    byFallback: s('SELECT id FROM documents WHERE title_key = ? AND year = ? AND first_author_key = ? ORDER BY id LIMIT 1').pluck(),
    read: s(`SELECT id, abstract, authors_json, publication_date, date_precision, venue, doi, arxiv_id, pmid, pmcid, ids_json, landing_url, pdf_url,
                    categories_json, license, open_access, doc_type, is_retracted, relations_json FROM documents WHERE id = ?`),
    insert: s(`INSERT INTO documents (title, title_key, abstract, authors_json, authors_text, first_author_key, publication_date, date_precision, sort_date, year,
                 venue, doi, arxiv_id, pmid, pmcid, ids_json, landing_url, pdf_url, categories_json, license, open_access, doc_type, is_retracted, relations_json,
                 first_seen_at_utc, updated_at_utc)
               VALUES (@title, @title_key, @abstract, @authors_json, @authors_text, @first_author_key, @publication_date, @date_precision, @sort_date, @year,
                 @venue, @doi, @arxiv_id, @pmid, @pmcid, @ids_json, @landing_url, @pdf_url, @categories_json, @license, @open_access, @doc_type, @is_retracted, @relations_json,
                 @now, @now)`),
    update: s(`UPDATE documents SET abstract = @abstract, authors_json = @authors_json, authors_text = @authors_text, publication_date = @publication_date,
                 date_precision = @date_precision, sort_date = @sort_date, venue = @venue, doi = @doi, arxiv_id = @arxiv_id, pmid = @pmid, pmcid = @pmcid,
                 ids_json = @ids_json, landing_url = @landing_url, pdf_url = @pdf_url, categories_json = @categories_json, license = @license,
                 open_access = @open_access, doc_type = @doc_type, is_retracted = @is_retracted, relations_json = @relations_json, updated_at_utc = @now
               WHERE id = @id`),
    provenance: s(`INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (document_id, source, native_id) DO UPDATE SET last_seen_at_utc = excluded.last_seen_at_utc, record_json = excluded.record_json`),
  };
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database, Statements>();
const statements = (db: Database) => {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  return st;
};

const PRECISION_RANK: Record<string, number> = { year: 1, month: 2, day: 3 };

/** Sortable date: "2020" → "2020-00-00" so a year-only date sorts before its own days. */
export function sortDate(date: string | undefined | null): string {
  if (!date) return '';
  return date.length === 4 ? `${date}-00-00` : date.length === 7 ? `${date}-00` : date;
}

function authorsText(authors: Author[]): string {
  return authors.map((a) => a.name).join('; ');
}

function findExisting(st: Statements, record: NormalizedRecord): number | undefined {
  const native = st.byNative.get(record.source, record.nativeId) as number | undefined;
  if (native !== undefined) return native;
  const keys = identityKeys(record);
  return (
    (keys.doi && (st.byDoi.get(keys.doi) as number | undefined)) ||
    (keys.arxiv && (st.byArxiv.get(keys.arxiv) as number | undefined)) ||
    (keys.pmid && (st.byPmid.get(keys.pmid) as number | undefined)) ||
    (keys.pmcid && (st.byPmcid.get(keys.pmcid) as number | undefined)) ||
    (keys.fallback && (st.byFallback.get(keys.fallback.titleKey, keys.fallback.year, keys.fallback.firstAuthor) as number | undefined)) ||
    undefined
  );
}

/** An identifier is taken only if no other document holds it (the columns are unique). */
function claim(st: Statement, current: string | null, candidate: string | undefined, selfId: number): string | null {
  if (current || !candidate) return current;
  const holder = st.get(candidate) as number | undefined;
  return holder === undefined || holder === selfId ? candidate : current;
}

function relationKey(r: Relation): string {
  return `${r.kind}|${r.doi ?? ''}|${r.arxiv ?? ''}|${r.url ?? ''}`;
}

function insertDocument(st: Statements, record: NormalizedRecord, now: string): number {
  const ids = { ...record.ids };
  // Unique identity columns: a record that names an identifier another document holds still becomes
  // its own document (its source and native id make it distinct), without that identifier.
  const free = (lookup: Statement, value: string | undefined) => (value && lookup.get(value) === undefined ? value : null);
  const info = st.insert.run({
    title: record.title,
    title_key: titleKey(record.title),
    abstract: record.abstract ?? null,
    authors_json: JSON.stringify(record.authors),
    authors_text: authorsText(record.authors),
    first_author_key: firstAuthorKey(record.authors),
    publication_date: record.publicationDate ?? null,
    date_precision: record.datePrecision ?? null,
    sort_date: sortDate(record.publicationDate),
    year: record.publicationDate ? Number(record.publicationDate.slice(0, 4)) : null,
    venue: record.venue ?? null,
    doi: free(st.byDoi, record.doi),
    arxiv_id: free(st.byArxiv, ids.arxiv),
    pmid: free(st.byPmid, ids.pmid),
    pmcid: free(st.byPmcid, ids.pmcid),
    ids_json: JSON.stringify(ids),
    landing_url: record.landingUrl ?? null,
    pdf_url: record.pdfUrl ?? null,
    categories_json: JSON.stringify(record.categories),
    license: record.license ?? null,
    open_access: record.openAccess === undefined ? null : record.openAccess ? 1 : 0,
    doc_type: record.type ?? null,
    is_retracted: record.isRetracted ? 1 : 0,
    relations_json: JSON.stringify(record.relations),
    now,
  });
  return Number(info.lastInsertRowid);
}

function joinDocument(st: Statements, id: number, record: NormalizedRecord, now: string): void {
  const row = st.read.get(id) as DocumentRow;
  const ids = { ...record.ids, ...(JSON.parse(row.ids_json) as Record<string, string>) }; // known ids win
  let authors = JSON.parse(row.authors_json) as Author[];
  if (authors.length === 0 && record.authors.length > 0) authors = record.authors;
  else if (authors.length === record.authors.length) {
    // Same list seen elsewhere: pick up ORCIDs and affiliations the document lacks.
    authors = authors.map((a, i) => ({ ...a, orcid: a.orcid ?? record.authors[i]!.orcid, affiliations: a.affiliations ?? record.authors[i]!.affiliations }));
    authors.forEach((a) => {
      if (a.orcid === undefined) delete a.orcid;
      if (a.affiliations === undefined) delete a.affiliations;
    });
  }
  const morePrecise = record.publicationDate && (!row.publication_date || (PRECISION_RANK[record.datePrecision ?? 'year']! > PRECISION_RANK[row.date_precision ?? 'year']! && record.publicationDate.startsWith(row.publication_date.slice(0, 4))));
  const publicationDate = morePrecise ? record.publicationDate! : row.publication_date;
  const relations = JSON.parse(row.relations_json) as Relation[];
  const seen = new Set(relations.map(relationKey));
  for (const r of record.relations) if (!seen.has(relationKey(r))) relations.push(r);
  const categories = [...new Set([...(JSON.parse(row.categories_json) as string[]), ...record.categories])];
  st.update.run({
    id,
    abstract: row.abstract ?? record.abstract ?? null,
    authors_json: JSON.stringify(authors),
    authors_text: authorsText(authors),
    publication_date: publicationDate,
    date_precision: morePrecise ? (record.datePrecision ?? null) : row.date_precision,
    sort_date: sortDate(publicationDate),
    venue: row.venue ?? record.venue ?? null,
    doi: claim(st.byDoi, row.doi, record.doi, id),
    arxiv_id: claim(st.byArxiv, row.arxiv_id, record.ids.arxiv, id),
    pmid: claim(st.byPmid, row.pmid, record.ids.pmid, id),
    pmcid: claim(st.byPmcid, row.pmcid, record.ids.pmcid, id),
    ids_json: JSON.stringify(ids),
    landing_url: row.landing_url ?? record.landingUrl ?? null,
    pdf_url: row.pdf_url ?? record.pdfUrl ?? null,
    categories_json: JSON.stringify(categories),
    license: row.license ?? record.license ?? null,
    open_access: row.open_access ?? (record.openAccess === undefined ? null : record.openAccess ? 1 : 0),
    doc_type: row.doc_type ?? record.type ?? null,
    is_retracted: row.is_retracted || record.isRetracted ? 1 : 0,
    relations_json: JSON.stringify(relations),
    now,
  });
}

/**
 * Merge a batch of records (any sources) in one transaction; answers, per
 * input, the document it became or joined and whether that document is new.
 */
export function mergeRecords(db: Database, inputs: MergeInput[], now: string): MergeResult[] {
  const st = statements(db);
  return db.transaction(() =>
    inputs.map(({ record }) => {
      const existing = findExisting(st, record);
      const documentId = existing ?? insertDocument(st, record, now);
      if (existing !== undefined) joinDocument(st, existing, record, now);
      st.provenance.run(documentId, record.source, record.nativeId, now, now, JSON.stringify(record));
      return { documentId, isNew: existing === undefined };
    }),
  )();
}
