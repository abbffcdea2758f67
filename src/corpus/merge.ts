/**
 * Merging records into the corpus: one document per work, whatever number of
 * sources and runs found it. A record's identity keys (its source's native id,
 * DOI, arXiv id, PMID, PMCID; a title match confirmed by work type, year and
 * authors only when no identifier matched: title-match.ts) find the documents
 * it belongs to. None: a new document.
 * One: the record joins it, filling what it lacks. Several: the record proves
 * they are one work, so they are folded into the oldest first (fold.ts). Title,
 * venue, type and date come from the published version over a preprint and
 * from the most authoritative source among published ones (authority.ts), so
 * which documents exist, their identifiers and their description do not depend
 * on the order records arrive in. One transaction per batch; a document row is
 * written only when something in it changes.
 */
import type { Database, Statement } from 'better-sqlite3';
import { firstAuthorKey, titleKey } from '../sources/normalize.js';
import type { Author, NormalizedRecord, Relation } from '../sources/types.js';
import { foldDocument, rowAsRecord, type StoredDocument } from './fold.js';
import { authorityOf } from './authority.js';
import { DOCUMENT_COLUMNS } from './read.js';
import { identityKeys, type IdentityKeys } from './identity-keys.js';
import { confirmTitleMatch, TITLE_MATCH_COLUMNS, type TitleMatchRow } from './title-match.js';
import { listsOf, recordPatch, type CanonicalColumns, type RecordLists } from './provenance-record.js';

export interface MergeInput {
  record: NormalizedRecord;
  /** Position of the record in its source's answer. */
  rank: number;
}

export interface MergeResult {
  documentId: number;
  isNew: boolean;
}

/** The columns a new document is written with (and first_seen_at_utc, updated_at_utc). */
const INSERT_COLUMNS = [
  'title', 'title_key', 'abstract', 'authors_json', 'authors_text', 'first_author_key', 'publication_date', 'date_precision', 'sort_date', 'year',
  'venue', 'doi', 'arxiv_id', 'pmid', 'pmcid', 'ids_json', 'landing_url', 'pdf_url', 'categories_json', 'license', 'open_access', 'doc_type', 'is_retracted', 'relations_json',
  'meta_source',
] as const;

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    db,
    byNative: s('SELECT document_id FROM document_sources WHERE source = ? AND native_id = ?').pluck(),
    byDoi: s('SELECT id FROM documents WHERE doi = ?').pluck(),
    byArxiv: s('SELECT id FROM documents WHERE arxiv_id = ?').pluck(),
    byPmid: s('SELECT id FROM documents WHERE pmid = ?').pluck(),
    byPmcid: s('SELECT id FROM documents WHERE pmcid = ?').pluck(),
    // Documents a title match may join: the same title key, a year at most one apart (confirmTitleMatch decides).
    byTitle: s(`SELECT ${TITLE_MATCH_COLUMNS} FROM documents d WHERE d.title_key = ? AND d.year BETWEEN ? AND ? ORDER BY d.id LIMIT 50`),
    read: s(`SELECT ${DOCUMENT_COLUMNS}, d.meta_source FROM documents d WHERE d.id = ?`),
    // Positional: binding 27 named parameters costs about twice the statement's own work here.
    insert: s(`INSERT INTO documents (${INSERT_COLUMNS.join(', ')}, first_seen_at_utc, updated_at_utc) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')}, ?, ?)`),
    // record_base: record_json is a patch against that document's record (migration 32), or the whole record (NULL).
    provenance: s(`INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json, record_base) VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (source, native_id) DO UPDATE SET document_id = excluded.document_id, last_seen_at_utc = excluded.last_seen_at_utc,
                   record_json = excluded.record_json, record_base = excluded.record_base`),
    // What triggers did per row before migration 20, done here: see mergeRecords.
    queueForIndex: s('INSERT OR IGNORE INTO documents_fts_pending (id) VALUES (?)'),
    sourceHeld: s('SELECT EXISTS (SELECT 1 FROM document_sources WHERE document_id = ? AND source = ?)').pluck(),
    addCounts: s(`INSERT INTO explorer_facet_counts (facet, value, count) SELECT ?, key, value FROM json_each(?) WHERE true
                  ON CONFLICT (facet, value) DO UPDATE SET count = count + excluded.count`),
    updates: new Map<string, Statement>(),
  };
}

export type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database, Statements>();
export const statements = (db: Database) => {
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

const authorsText = (authors: Author[]) => authors.map((a) => a.name).join('; ');

/** Year of a publication date as stored (null for none). */
const yearOf = (date: string | undefined): number | null => {
  const year = date ? Number(date.slice(0, 4)) : NaN;
  return Number.isInteger(year) ? year : null;
};

interface Matches {
  keys: IdentityKeys;
  /** Every document the record's identifiers point at, oldest first. */
  documents: number[];
  /** Whether this source already has a provenance row under this native id. */
  sightedBefore: boolean;
}

/** Every document the record's identifiers point at, oldest first; a confirmed title match only when none does. */
function findMatches(st: Statements, record: NormalizedRecord): Matches {
  const keys = identityKeys(record);
  const found = new Set<number>();
  const add = (id: unknown) => typeof id === 'number' && found.add(id);
  const sighted = st.byNative.get(record.source, record.nativeId);
  add(sighted);
  if (keys.doi) add(st.byDoi.get(keys.doi));
  if (keys.arxiv) add(st.byArxiv.get(keys.arxiv));
  if (keys.pmid) add(st.byPmid.get(keys.pmid));
  if (keys.pmcid) add(st.byPmcid.get(keys.pmcid));
  if (found.size === 0 && keys.fallback) {
    const { titleKey: key, year } = keys.fallback;
    const candidates = st.byTitle.all(key, year - 1, year + 1) as TitleMatchRow[];
    if (candidates.length) add(candidates.find((row) => confirmTitleMatch(record, row))?.id);
  }
  return { keys, documents: [...found].sort((a, b) => a - b), sightedBefore: sighted !== undefined };
}

/** The columns a document made from this one record has (INSERT_COLUMNS). */
function columnsOf(record: NormalizedRecord, keys: IdentityKeys) {
  return {
    title: record.title,
    title_key: keys.title,
    abstract: record.abstract ?? null,
    authors_json: JSON.stringify(record.authors),
    authors_text: authorsText(record.authors),
    first_author_key: keys.firstAuthor,
    publication_date: record.publicationDate ?? null,
    date_precision: record.datePrecision ?? null,
    sort_date: sortDate(record.publicationDate),
    year: yearOf(record.publicationDate),
    venue: record.venue ?? null,
    doi: record.doi ?? null,
    arxiv_id: record.ids.arxiv ?? null,
    pmid: record.ids.pmid ?? null,
    pmcid: record.ids.pmcid ?? null,
    ids_json: JSON.stringify(record.ids),
    landing_url: record.landingUrl ?? null,
    pdf_url: record.pdfUrl ?? null,
    categories_json: JSON.stringify(record.categories),
    license: record.license ?? null,
    open_access: record.openAccess === undefined ? null : record.openAccess ? 1 : 0,
    doc_type: record.type ?? null,
    is_retracted: record.isRetracted ? 1 : 0,
    relations_json: JSON.stringify(record.relations),
    meta_source: record.source || null,
  };
}

/** A new document from the record, queued for the full-text index; answers its id, year and columns. */
export function insertDocument(st: Statements, record: NormalizedRecord, keys: IdentityKeys, now: string): { id: number; year: number | null; columns: CanonicalColumns } {
  // Only called when no document holds any of the record's identifiers, so all are free to take.
  const columns = columnsOf(record, keys);
  const year = columns.year;
  const id = Number(st.insert.run(...INSERT_COLUMNS.map((c) => columns[c]), now, now).lastInsertRowid);
  // Queued before anything can update it: the update trigger leaves unindexed documents to the flush.
  st.queueForIndex.run(id);
  return { id, year, columns };
}

const isPreprint = (type: string | null | undefined) => type === 'preprint' || type === 'posted-content';

/** Take an identifier only if no other document holds it (the columns are unique). */
function claim(lookup: Statement, current: string | null, candidate: string | undefined, selfId: number): string | null {
  if (current || !candidate) return current;
  const holder = lookup.get(candidate) as number | undefined;
  return holder === undefined || holder === selfId ? candidate : current;
}

const relationKey = (r: Relation) => `${r.kind}|${r.doi ?? ''}|${r.arxiv ?? ''}|${r.url ?? ''}`;

/** What the document becomes with the record joined: the fields that change, by column. */
function joinedColumns(st: Statements, row: StoredDocument, record: NormalizedRecord, lists: RecordLists): Record<string, unknown> {
  const next: Record<string, unknown> = {};
  // A published version speaks for the work over its preprint, and among published records the
  // more authoritative source speaks (authority.ts): title, venue, type and date follow it. So the
  // document reads the same whatever order its records arrive in.
  const published = record.type !== undefined && !isPreprint(record.type) && record.venue !== undefined;
  const upgrade = isPreprint(row.doc_type) && published;
  const takeOver = upgrade || (published && !isPreprint(row.doc_type) && authorityOf(record.source) > authorityOf(row.meta_source));
  if (takeOver) {
    if (record.title !== row.title) {
      next.title = record.title;
      next.title_key = titleKey(record.title);
    }
    if (record.venue !== row.venue) next.venue = record.venue;
    if (record.type !== row.doc_type) next.doc_type = record.type;
    if (record.source !== row.meta_source) next.meta_source = record.source;
  } else {
    if (row.venue === null && record.venue) next.venue = record.venue;
    if (row.doc_type === null && record.type) next.doc_type = record.type;
  }
  const current = row.publication_date;
  const morePrecise =
    record.publicationDate && (!current || (PRECISION_RANK[record.datePrecision ?? 'year']! > PRECISION_RANK[row.date_precision ?? 'year']! && record.publicationDate.startsWith(current.slice(0, 4))));
  const authoritativeDate =
    takeOver && record.publicationDate !== current && (current === null || PRECISION_RANK[record.datePrecision ?? 'year']! >= PRECISION_RANK[row.date_precision ?? 'year']! || !record.publicationDate?.startsWith(current.slice(0, 4)));
  if (record.publicationDate && (morePrecise || authoritativeDate)) {
    next.publication_date = record.publicationDate;
    next.date_precision = record.datePrecision ?? null;
    next.sort_date = sortDate(record.publicationDate);
    next.year = yearOf(record.publicationDate);
  }
  if (row.abstract === null && record.abstract) next.abstract = record.abstract;

  // A list the document holds exactly as the record has it brings nothing new (not even parsed).
  let mergedAuthors: Author[] | undefined;
  if (lists.authors_json !== row.authors_json) {
    const authors = JSON.parse(row.authors_json) as Author[];
    if (authors.length === 0 && record.authors.length > 0) mergedAuthors = record.authors;
    else if (authors.length === record.authors.length) {
      // The same list seen elsewhere: pick up ORCIDs and affiliations the document lacks.
      let changed = false;
      mergedAuthors = authors.map((a, i) => {
        const other = record.authors[i]!;
        const out = { ...a };
        if (!a.orcid && other.orcid) (out.orcid = other.orcid), (changed = true);
        if (!a.affiliations && other.affiliations) (out.affiliations = other.affiliations), (changed = true);
        return out;
      });
      if (!changed) mergedAuthors = undefined;
    }
  }
  if (mergedAuthors) {
    next.authors_json = JSON.stringify(mergedAuthors);
    next.authors_text = authorsText(mergedAuthors);
    next.first_author_key = firstAuthorKey(mergedAuthors);
  }

  // The DOI follows the published version too: left on the preprint's DOI, the document could
  // not be found by the article's, and the next record carrying only that would start a second
  // document for the work. The article's DOI is free here: its holder was folded in first.
  if (upgrade && record.doi && row.doi && record.doi !== row.doi && claim(st.byDoi, null, record.doi, row.id)) next.doi = record.doi;
  for (const [column, lookup, candidate] of [
    ['doi', st.byDoi, record.doi],
    ['arxiv_id', st.byArxiv, record.ids.arxiv],
    ['pmid', st.byPmid, record.ids.pmid],
    ['pmcid', st.byPmcid, record.ids.pmcid],
  ] as const) {
    if (column in next) continue;
    const current = row[column];
    const value = claim(lookup, current, candidate, row.id);
    if (value !== current) next[column] = value;
  }
  const ids = lists.ids_json === row.ids_json ? undefined : (JSON.parse(row.ids_json) as Record<string, string>);
  const missing = ids ? Object.entries(record.ids).filter(([k, v]) => v !== undefined && !(k in ids)) : [];
  if (missing.length) next.ids_json = JSON.stringify({ ...ids, ...Object.fromEntries(missing) });

  if (row.landing_url === null && record.landingUrl) next.landing_url = record.landingUrl;
  if (row.pdf_url === null && record.pdfUrl) next.pdf_url = record.pdfUrl;
  if (row.license === null && record.license) next.license = record.license;
  if (row.open_access === null && record.openAccess !== undefined) next.open_access = record.openAccess ? 1 : 0;
  if (!row.is_retracted && record.isRetracted) next.is_retracted = 1;

  if (lists.categories_json !== row.categories_json) {
    const categories = JSON.parse(row.categories_json) as string[];
    const newCategories = record.categories.filter((c) => !categories.includes(c));
    if (newCategories.length) next.categories_json = JSON.stringify([...categories, ...newCategories]);
  }
  if (lists.relations_json !== row.relations_json) {
    const relations = JSON.parse(row.relations_json) as Relation[];
    const seen = new Set(relations.map(relationKey));
    const newRelations = record.relations.filter((r) => !seen.has(relationKey(r)));
    if (newRelations.length) next.relations_json = JSON.stringify([...relations, ...newRelations]);
  }
  return next;
}

/** Join a record to a document; writes only when something changes. Answers the document as it now stands. */
export function joinDocument(st: Statements, id: number, record: NormalizedRecord, now: string, lists = listsOf(record)): StoredDocument {
  const row = st.read.get(id) as StoredDocument;
  const changes = joinedColumns(st, row, record, lists);
  const columns = Object.keys(changes);
  if (columns.length === 0) return row;
  const key = columns.join(',');
  let update = st.updates.get(key);
  if (!update) {
    update = st.db.prepare(`UPDATE documents SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at_utc = @now WHERE id = @id`);
    st.updates.set(key, update);
  }
  update.run({ ...changes, now, id });
  return { ...row, ...changes } as StoredDocument;
}

/**
 * Describe an existing document anew from its records alone (the first written as a new document's
 * would be, the others joined in order), as when records that were never one work leave it
 * (corpus/split.ts). Identifiers only the leaving records had are freed. A retraction the
 * lifecycle check recorded on the document stays.
 */
export function redescribeDocument(st: Statements, id: number, records: NormalizedRecord[], now: string): void {
  const [first, ...rest] = records;
  if (!first) return;
  const columns: Record<string, unknown> = columnsOf(first, identityKeys(first));
  if ((st.read.get(id) as StoredDocument).is_retracted) columns.is_retracted = 1;
  // An identifier another document holds stays there (the columns are unique), as claim() has it.
  for (const [column, lookup] of [['doi', st.byDoi], ['arxiv_id', st.byArxiv], ['pmid', st.byPmid], ['pmcid', st.byPmcid]] as const) {
    columns[column] = claim(lookup, null, (columns[column] as string | null) ?? undefined, id);
  }
  st.db.prepare(`UPDATE documents SET ${INSERT_COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at_utc = ? WHERE id = ?`).run(...INSERT_COLUMNS.map((c) => columns[c]), now, id);
  for (const record of rest) joinDocument(st, id, record, now);
}

/** Add one to the explorer's count of documents of a year (a new document not made by mergeRecords). */
export function countNewDocumentYear(st: Statements, year: number | null): void {
  st.addCounts.run('years', JSON.stringify({ [year === null ? 'undated' : String(year)]: 1 }));
}

const increment = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/**
 * Merge a batch of records (any sources) in one transaction; answers, per
 * input, the document it became or joined (as it stands after the whole
 * batch) and whether that document is new.
 *
 * The explorer's year and source counts (migration 13) are added here, once
 * per batch: a new document counts under its year, a provenance row under its
 * source when it is that source's first on the document. Deletes, folds and
 * changed years are counted by triggers; the sums commute, so adding at the
 * end of the batch gives the same counts as a trigger per row did.
 */
export function mergeRecords(db: Database, inputs: MergeInput[], now: string): MergeResult[] {
  const st = statements(db);
  return db.transaction(() => {
    // A later record may fold the document an earlier one became or joined; its answer must name
    // the survivor, or the caller would link a deleted document (a foreign-key failure).
    const foldedInto = new Map<number, number>();
    const newYears = new Map<string, number>();
    const newSources = new Map<string, number>();
    const answers = inputs.map(({ record }) => {
      const { keys, documents, sightedBefore } = findMatches(st, record);
      let documentId: number;
      let patch: string | undefined;
      if (documents.length === 0) {
        const inserted = insertDocument(st, record, keys, now);
        documentId = inserted.id;
        increment(newYears, inserted.year === null ? 'undated' : String(inserted.year));
        patch = recordPatch(record, inserted.columns, true);
      } else {
        documentId = documents[0]!;
        for (const other of documents.slice(1)) {
          const dropped = foldDocument(db, documentId, other);
          foldedInto.set(other, documentId);
          joinDocument(st, documentId, rowAsRecord(dropped), now);
        }
        const lists = listsOf(record);
        patch = recordPatch(record, joinDocument(st, documentId, record, now, lists), false, lists);
      }
      // A sighting seen before updates its row (moving it is counted by trigger); a new one is
      // counted when the document had nothing from this source yet.
      if (!sightedBefore && (documents.length === 0 || !st.sourceHeld.get(documentId, record.source))) increment(newSources, record.source);
      // Stored as a patch against the document as it now stands when that gives the record back exactly.
      if (patch === undefined) st.provenance.run(documentId, record.source, record.nativeId, now, now, JSON.stringify(record), null);
      else st.provenance.run(documentId, record.source, record.nativeId, now, now, patch, documentId);
      return { documentId, isNew: documents.length === 0 };
    });
    if (newYears.size) st.addCounts.run('years', JSON.stringify(Object.fromEntries(newYears)));
    if (newSources.size) st.addCounts.run('sources', JSON.stringify(Object.fromEntries(newSources)));
    const survivor = (id: number): number => (foldedInto.has(id) ? survivor(foldedInto.get(id)!) : id);
    // New only while the inserted document survives: once folded, the work is counted by the older one.
    return answers.map(({ documentId, isNew }) => ({ documentId: survivor(documentId), isNew: isNew && !foldedInto.has(documentId) }));
  })();
}
