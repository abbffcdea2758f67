/**
 * Ingest never folds different works (issue 33 item 1): a record that shares
 * no identifier with a document joins it only on a title match confirmed by
 * the class of work, years at most one apart and authors that agree as
 * people. The paper is a real PLOS record (test/fixtures/plos); every other
 * record is derived from it in another source's own answer shape and read by
 * that source's parser, as a run reads it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import type { Database } from '../src/db/open.js';
import { parseCrossrefWork } from '../src/sources/crossref.js';
import { parseResponse as parseDblp } from '../src/sources/dblp.js';
import { parseResponse as parseEuropePmc } from '../src/sources/europepmc.js';
import { parseResponse as parseHal } from '../src/sources/hal.js';
import { parseResponse as parsePlos } from '../src/sources/plos.js';
import { parseResponse as parseZenodo } from '../src/sources/zenodo.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { fixture } from './_setup.js';
import { withDatabase } from './_corpus.js';

const NOW = '2026-11-21T00:00:00.000Z';
// "Persistence of Burkholderia thailandensis E264 in lung tissue after a single intranasal
// challenge…" (10.1371/journal.pone.0218147, 2019): four authors, "Victor M. Jimenez Jr." first.
const paper = parsePlos(fixture('plos/search-alcohol-rows5-hl-abstract.json').toString('utf8')).records[0]!;
const family = (name: string) => name.replace(/ Jr\.$/, '').split(' ').pop()!;
const given = (name: string) => name.replace(/ Jr\.$/, '').split(' ').slice(0, -1).join(' ');
const year = Number(paper.publicationDate!.slice(0, 4));

const one = (records: NormalizedRecord[]) => {
  assert.is(records.length, 1);
  return records[0]!;
};

/** The paper's data package at a data repository: its title, its authors, its year, its own DOI. */
const zenodoDataset = () =>
  one(parseZenodo(JSON.stringify({
    hits: { total: 1, hits: [{ id: 3456789, doi: '10.5281/zenodo.3456789', metadata: {
      title: paper.title, publication_date: `${year}-11-02`, resource_type: { type: 'dataset', title: 'Dataset' },
      creators: paper.authors.map((a) => ({ name: `${family(a.name)}, ${given(a.name)}` })), access_right: 'open',
    } }] },
  })).records);

/** The paper's code record in dblp ("Data and Artifacts", linking to a code host). */
const dblpCode = () =>
  one(parseDblp(JSON.stringify({ result: { hits: { '@total': '1', hit: [{ info: {
    authors: { author: paper.authors.map((a) => ({ text: a.name.replace(/ Jr\.$/, '') })) }, title: `${paper.title}.`, year: String(year),
    type: 'Data and Artifacts', key: 'data/10/JimenezSCK19', ee: 'https://github.com/example/burkholderia-persistence',
  } }] } } })).records);

/** The first author's thesis, one chapter of which is the paper, at HAL. */
const halThesis = () =>
  one(parseHal(JSON.stringify({ response: { numFound: 1, docs: [{
    docid: 2468013, halId_s: 'tel-02468013', title_s: [paper.title], authFullName_s: [paper.authors[0]!.name], producedDate_s: `${year}-09-30`, docType_s: 'THESE',
  }] } })).records);

/** The same paper seen by Europe PMC a year later in print, authors as "Family Initials", no DOI. */
const europePmc = () =>
  one(parseEuropePmc(JSON.stringify({ hitCount: 1, resultList: { result: [{
    id: '31821372', source: 'MED', pmid: '31821372', title: `${paper.title}.`, pubYear: String(year + 1), journalTitle: 'PLoS One', pubType: 'research-article; journal article',
    authorString: `${paper.authors.map((a) => `${family(a.name)} ${given(a.name).split(/[\s.]+/).filter(Boolean).map((w) => w[0]).join('')}`).join(', ')}.`,
  }] } })).records);

/** A Crossref work under the paper's title: other authors but a first author of the same surname and initial, or the same authors under another DOI. */
const crossref = (doi: string, authors: { given: string; family: string }[]) =>
  parseCrossrefWork({ DOI: doi, title: [paper.title], author: authors, issued: { 'date-parts': [[year, 6]] }, type: 'journal-article', 'container-title': ['Another Journal'] })!;

function mergeAll(db: Database, records: NormalizedRecord[]) {
  return mergeRecords(db, records.map((record, rank) => ({ record, rank })), NOW).map((r) => r.documentId);
}

test('a dataset, a code record and a thesis under the paper’s title stay documents of their own, in either order', () => {
  for (const order of ['paper first', 'paper last'] as const) {
    withDatabase(NOW, (db) => {
      const others = [zenodoDataset(), dblpCode(), halThesis()];
      assert.equal(others.map((r) => r.type), ['dataset', 'software', 'thesis']);
      const ids = order === 'paper first' ? mergeAll(db, [paper, ...others]) : [...mergeAll(db, others), ...mergeAll(db, [paper])].reverse();
      assert.is(new Set(ids).size, 4, `${order}: four documents`);
      const types = db.prepare('SELECT doc_type FROM documents ORDER BY doc_type').pluck().all();
      assert.equal(types, ['article', 'dataset', 'software', 'thesis'], 'each keeps its own identity');
      assert.is(db.prepare('SELECT doi FROM documents WHERE doc_type = ?').pluck().get('dataset'), '10.5281/zenodo.3456789');
    });
  }
});

test('the same paper from another source, authors as family and initials, a year later, no DOI: one document', () => {
  withDatabase(NOW, (db) => {
    const epmc = europePmc();
    assert.is(epmc.authors[0]!.family, 'Jimenez');
    const [a, b] = mergeAll(db, [paper, epmc]);
    assert.is(a, b);
    assert.equal(db.prepare('SELECT source FROM document_sources ORDER BY source').pluck().all(), ['europepmc', 'plos']);
  });
});

test('the same title and year: a first author of the same surname and initial with no co-author in common, or another DOI, is another work', () => {
  withDatabase(NOW, (db) => {
    const namesake = crossref('10.5555/namesake.1', [{ given: 'V.', family: 'Jimenez' }, { given: 'Rosa', family: 'Alvarez' }, { given: 'Tomas', family: 'Ibarra' }]);
    const otherDoi = crossref('10.5555/second-doi.1', paper.authors.map((a) => ({ given: given(a.name), family: family(a.name) })));
    const ids = mergeAll(db, [paper, namesake, otherDoi]);
    assert.is(new Set(ids).size, 3);
  });
});

test.run();
