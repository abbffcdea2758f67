/**
 * One paper as several sources see it, from recorded real answers (test/fixtures/identity/,
 * provenance in test/fixtures/README.md): the adapters' pure parsers must give identity keys
 * that agree, and the corpus must keep one document per work whatever the arrival order.
 *
 * No single paper has real recordings from all three of arXiv, Crossref and OpenAlex in the
 * public recordings we could search, so two papers share the work:
 * - MERLIN (arXiv 2301.01148, published as 10.1016/j.apenergy.2023.121323): arXiv + Crossref.
 * - ChemCrow (arXiv 2304.05376, published as 10.1038/s42256-024-00832-8): Crossref + OpenAlex,
 *   whose answer holds both OpenAlex works for it, the journal article and the arXiv preprint,
 *   and Semantic Scholar, whose one record names both versions (the journal DOI and the arXiv id).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityKeys } from '../src/corpus/identity-keys.js';
import { mergeRecords } from '../src/corpus/merge.js';
import type { Database } from '../src/db/open.js';
import { parseResponse as parseArxiv } from '../src/sources/arxiv.js';
import { parseCrossrefWork, parseResponse as parseCrossref } from '../src/sources/crossref.js';
import { parseResponse as parseOpenAlex } from '../src/sources/openalex.js';
import { parseResponse as parseSemanticScholar } from '../src/sources/semanticscholar.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { fixture } from './_setup.js';
import { withDatabase as withNewDatabase } from './_corpus.js';

const NOW = '2026-11-21T00:00:00.000Z';
const LATER = '2026-11-22T00:00:00.000Z';
const text = (name: string) => fixture(`identity/${name}`).toString('utf8');

const MERLIN_DOI = '10.1016/j.apenergy.2023.121323';
const CHEMCROW_DOI = '10.1038/s42256-024-00832-8';

function only<T>(items: T[]): T {
  assert.is(items.length, 1);
  return items[0]!;
}

const merlin = {
  arxiv: () => only(parseArxiv(text('arxiv-query-ml-nlp-2020-2022-max50-entry-2301.01148.xml')).records),
  // findpapers stored Crossref's `message` only (no envelope), so the per-work parser reads it.
  crossref: () => parseCrossrefWork(JSON.parse(text('crossref-work-10.1016_j.apenergy.2023.121323-message-no-reference-list.json')))!,
};

function chemcrowOpenAlex(nativeId: string): NormalizedRecord {
  const page = parseOpenAlex(text('openalex-works-filter-title-search-augmenting-llms-chemistry-tools.json'));
  assert.is(page.received, 2);
  return page.records.find((r) => r.nativeId === nativeId)!;
}

const chemcrow = {
  crossref: () => only(parseCrossref(text('crossref-works-query-title-augmenting-llms-chemistry-tools-rows1-no-reference-list.json')).records),
  journal: () => chemcrowOpenAlex('W4396723768'),
  preprint: () => chemcrowOpenAlex('W4365597205'),
  // /paper/search/match answers {data: [paper + matchScore]}, no total and no next: the
  // /paper/search parser reads it as one page of one paper.
  s2: () => only(parseSemanticScholar(text('semanticscholar-chemcrow-match.json')).records),
};

interface DocumentRow {
  id: number;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  pmcid: string | null;
  ids: Record<string, string>;
}

const withDatabase = (run: (db: Database) => void) => withNewDatabase(NOW, run);

function merge(db: Database, records: NormalizedRecord[]) {
  return mergeRecords(db, records.map((record, rank) => ({ record, rank })), NOW);
}

function documents(db: Database): DocumentRow[] {
  const rows = db.prepare('SELECT id, doi, arxiv_id, pmid, pmcid, ids_json FROM documents ORDER BY id').all() as (Omit<DocumentRow, 'ids'> & { ids_json: string })[];
  return rows.map(({ ids_json, ...row }) => ({ ...row, ids: JSON.parse(ids_json) as Record<string, string> }));
}

/** Provenance as "source native_id" per document id. */
function provenance(db: Database): Map<number, string[]> {
  const rows = db.prepare('SELECT document_id, source, native_id FROM document_sources ORDER BY source, native_id').all() as { document_id: number; source: string; native_id: string }[];
  const byDocument = new Map<number, string[]>();
  for (const r of rows) byDocument.set(r.document_id, [...(byDocument.get(r.document_id) ?? []), `${r.source} ${r.native_id}`]);
  return byDocument;
}

test('MERLIN: arXiv and Crossref give the same DOI key, lower case and without prefix', () => {
  const fromArxiv = identityKeys(merlin.arxiv());
  const fromCrossref = identityKeys(merlin.crossref());
  assert.is(fromArxiv.doi, MERLIN_DOI, 'from <arxiv:doi> of the preprint');
  assert.is(fromCrossref.doi, MERLIN_DOI);
  assert.is(fromArxiv.arxiv, '2301.01148', 'unversioned, though the entry is v1');
  assert.is(fromCrossref.arxiv, undefined, 'the Crossref record names no preprint');

  // The fallback key cannot link these two, and should not have to: the journal shortened the
  // title ("... energy flexible operation ... using smart meter data and CityLearn" became
  // "... operation ...") and arXiv dates the posting (31 December 2022) while Crossref dates the
  // issue (September 2023). The first author is the one thing they share.
  assert.ok(fromArxiv.fallback && fromCrossref.fallback);
  assert.is(fromArxiv.fallback.firstAuthor, 'nweye');
  assert.is(fromCrossref.fallback.firstAuthor, 'nweye');
  assert.is(fromArxiv.fallback.year, 2022);
  assert.is(fromCrossref.fallback.year, 2023);
  assert.is.not(fromArxiv.fallback.titleKey, fromCrossref.fallback.titleKey);
});

test('MERLIN: merged in either order, one document with the DOI, the arXiv id and both provenance rows', () => {
  const outcome = (order: NormalizedRecord[]) => {
    let seen: { documents: DocumentRow[]; rows: string[] } | undefined;
    withDatabase((db) => {
      const first = merge(db, order);
      assert.equal(first.map((r) => r.isNew), [true, false]);
      assert.is(first[1]!.documentId, first[0]!.documentId);
      const again = merge(db, order);
      assert.equal(again.map((r) => r.isNew), [false, false], 'merging the same records again adds no document');
      assert.ok(again.every((r) => r.documentId === first[0]!.documentId));
      const docs = documents(db);
      assert.is(docs.length, 1);
      seen = { documents: docs, rows: provenance(db).get(docs[0]!.id) ?? [] };
    });
    return seen!;
  };
  const arxivFirst = outcome([merlin.arxiv(), merlin.crossref()]);
  const crossrefFirst = outcome([merlin.crossref(), merlin.arxiv()]);
  for (const { documents: [doc], rows } of [arxivFirst, crossrefFirst]) {
    assert.is(doc!.doi, MERLIN_DOI);
    assert.is(doc!.arxiv_id, '2301.01148');
    assert.is(doc!.ids.arxiv, '2301.01148');
    assert.equal(rows, ['arxiv 2301.01148', `crossref ${MERLIN_DOI}`]);
  }
});

test('ChemCrow: Crossref and OpenAlex give the journal article the same DOI; OpenAlex’s arXiv work carries the arXiv id', () => {
  const crossref = identityKeys(chemcrow.crossref());
  const journal = identityKeys(chemcrow.journal());
  const preprint = identityKeys(chemcrow.preprint());
  assert.is(crossref.doi, CHEMCROW_DOI);
  assert.is(journal.doi, CHEMCROW_DOI);
  assert.is(journal.pmid, '38799228');
  assert.is(journal.arxiv, undefined, 'OpenAlex lists no arXiv location on the journal work');
  assert.is(preprint.arxiv, '2304.05376', 'from the arXiv DOI and the arxiv.org landing page');
  assert.is(preprint.doi, '10.48550/arxiv.2304.05376', 'arXiv’s own DataCite DOI, not the journal’s');

  // Same title and year for the journal article, but not the same first-author key: Crossref's
  // deposit has given "Andres", family "M. Bran", where OpenAlex says "Andres M. Bran". So the
  // fallback key alone would not join them; the DOI does.
  assert.ok(crossref.fallback && journal.fallback);
  assert.is(crossref.fallback.titleKey, journal.fallback.titleKey);
  assert.is(crossref.fallback.year, 2024);
  assert.is(journal.fallback.year, 2024);
  assert.is(crossref.fallback.firstAuthor, 'm bran');
  assert.is(journal.fallback.firstAuthor, 'bran');
  // The preprint differs in every fallback part but the author: "ChemCrow: " title prefix and
  // OpenAlex's placeholder date 2023-01-01 (arXiv posted it on 11 April 2023).
  assert.ok(preprint.fallback);
  assert.is(preprint.fallback.year, 2023);
  assert.is.not(preprint.fallback.titleKey, journal.fallback.titleKey);
});

test('ChemCrow: in any order, the journal article is one document with the Crossref and OpenAlex rows; the preprint work stays apart', () => {
  // Nothing in these three records says the preprint and the article are one work (no shared
  // identifier, no relation), so two documents is the right answer here.
  const outcome = (order: NormalizedRecord[]) => {
    let seen: { documents: DocumentRow[]; rows: Map<number, string[]> } | undefined;
    withDatabase((db) => {
      merge(db, order);
      const count = documents(db).length;
      assert.ok(merge(db, order).every((r) => !r.isNew), 'merging the same records again adds no document');
      assert.is(documents(db).length, count);
      seen = { documents: documents(db), rows: provenance(db) };
    });
    return seen!;
  };
  for (const order of [
    [chemcrow.crossref(), chemcrow.journal(), chemcrow.preprint()],
    [chemcrow.preprint(), chemcrow.journal(), chemcrow.crossref()],
  ]) {
    const { documents: docs, rows } = outcome(order);
    assert.is(docs.length, 2);
    const article = docs.find((d) => d.doi === CHEMCROW_DOI)!;
    const preprint = docs.find((d) => d.arxiv_id === '2304.05376')!;
    assert.ok(article && preprint && article.id !== preprint.id);
    assert.is(article.pmid, '38799228');
    assert.is(article.arxiv_id, null);
    assert.is(article.ids.openalex, 'W4396723768');
    assert.equal(rows.get(article.id), [`crossref ${CHEMCROW_DOI}`, 'openalex W4396723768']);
    assert.is(preprint.doi, '10.48550/arxiv.2304.05376');
    assert.is(preprint.ids.openalex, 'W4365597205');
    assert.equal(rows.get(preprint.id), ['openalex W4365597205']);
  }
});

test('ChemCrow: Semantic Scholar’s match names both versions: the journal DOI, the arXiv id, PMID and PMCID', () => {
  const page = parseSemanticScholar(text('semanticscholar-chemcrow-match.json'));
  assert.is(page.received, 1);
  assert.is(page.unusable, 0);
  assert.is(page.total, undefined, 'the match endpoint sends no total');
  assert.is(page.nextOffset, undefined);
  const s2 = chemcrow.s2();
  assert.equal(identityKeys(s2), {
    doi: CHEMCROW_DOI,
    arxiv: '2304.05376',
    pmid: '38799228',
    pmcid: 'PMC11116106',
    title: identityKeys(chemcrow.journal()).title,
    firstAuthor: 'bran',
    fallback: { titleKey: identityKeys(chemcrow.journal()).title, year: 2023, firstAuthor: 'bran' },
  });
  // A published record by type, but not in every field: S2's `venue` is an abbreviation (its
  // journal.name says "Nature Machine Intelligence") and its date is the arXiv posting's.
  assert.is(s2.type, 'article');
  assert.is(s2.venue, 'Nat. Mac. Intell.');
  assert.is(s2.publicationDate, '2023-04-11');
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

test('ChemCrow with Semantic Scholar: in all 24 orders, one document with every identifier and the four provenance rows; merging again writes nothing', () => {
  const records = { preprint: chemcrow.preprint(), journal: chemcrow.journal(), crossref: chemcrow.crossref(), s2: chemcrow.s2() };
  const published = [records.journal, records.crossref, records.s2];
  const openAlexIds = ['W4365597205', 'W4396723768'];
  const orders = permutations(Object.keys(records) as (keyof typeof records)[]);
  assert.is(orders.length, 24);
  for (const order of orders) {
    const label = order.join(', ');
    const batch = order.map((name, rank) => ({ record: records[name], rank }));
    withDatabase((db) => {
      // One batch, as the runner merges a page: records that fold documents of earlier ones included.
      const answers = mergeRecords(db, batch, NOW);
      const docs = documents(db);
      assert.is(docs.length, 1, `${label}: one document`);
      const doc = docs[0]!;
      assert.ok(answers.every((a) => a.documentId === doc.id), `${label}: every answer names the surviving document`);
      assert.equal(answers.map((a) => a.isNew), [true, false, false, false], `${label}: new only for the first record (later documents were folded into its)`);

      assert.is(doc.doi, CHEMCROW_DOI, `${label}: the journal DOI, not arXiv’s`);
      assert.is(doc.arxiv_id, '2304.05376', label);
      assert.is(doc.pmid, '38799228', label);
      assert.is(doc.pmcid, 'PMC11116106', label);
      assert.is(doc.ids.s2, '354dcdebf3f8b5feeed5c62090e0bc1f0c28db06', label);
      // ids keeps one value per kind: the OpenAlex id of whichever work reached the oldest
      // document first. Both works stay attached through their provenance rows.
      assert.ok(openAlexIds.includes(doc.ids.openalex!), `${label}: ids.openalex ${doc.ids.openalex}`);
      const rows = [`crossref ${CHEMCROW_DOI}`, ...openAlexIds.map((id) => `openalex ${id}`), 'semanticscholar 354dcdebf3f8b5feeed5c62090e0bc1f0c28db06'];
      assert.equal(provenance(db), new Map([[doc.id, rows]]), `${label}: the four provenance rows, all on the document`);

      // The published version speaks for the work over its preprint, and among published records the
      // most authoritative source (Crossref, the publisher's deposit) does: the same title, venue,
      // type and date in every order — never S2's "Nat. Mac. Intell." or its arXiv posting date.
      const meta = db.prepare('SELECT title, venue, doc_type, publication_date, meta_source FROM documents WHERE id = ?').get(doc.id) as Record<string, string>;
      assert.equal(
        meta,
        { title: 'Augmenting large language models with chemistry tools', venue: records.crossref.venue!, doc_type: 'article', publication_date: records.crossref.publicationDate!, meta_source: 'crossref' },
        label,
      );
      assert.ok(published.length === 3);

      const before = db.prepare('SELECT * FROM documents').all();
      const again = mergeRecords(db, batch, LATER);
      assert.ok(again.every((a) => a.documentId === doc.id && !a.isNew), `${label}: merged again, every record joins the document`);
      assert.equal(db.prepare('SELECT * FROM documents').all(), before, `${label}: merged again, no document row written`);
      assert.equal(provenance(db), new Map([[doc.id, rows]]), label);
    });
  }
});

test.run();
