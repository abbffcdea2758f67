/**
 * The rules that decide "same work or not" on messy records (issue 33 item 3)
 * and the work types each source's own vocabulary gives (item 1): names as
 * people, titles without markup, subtitles, one content word, and the classes
 * of work that never become a paper's document by title.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compareAuthors, peopleOf, personOf, samePerson } from '../src/corpus/people.js';
import { compareTitles, titleForms } from '../src/corpus/titles.js';
import { workClass } from '../src/corpus/work-class.js';
import { titleKey } from '../src/sources/normalize.js';
import { parseResponse as parseAds } from '../src/sources/ads.js';
import { parseCrossrefWork } from '../src/sources/crossref.js';
import { parseResponse as parseDblp } from '../src/sources/dblp.js';
import { parseResponse as parseEuropePmc } from '../src/sources/europepmc.js';
import { parseResponse as parseHal } from '../src/sources/hal.js';
import { parseResponse as parseOpenAlex } from '../src/sources/openalex.js';
import { parseResponse as parseOrcid } from '../src/sources/orcid.js';
import { parseResponse as parsePlos } from '../src/sources/plos.js';
import { parseResponse as parsePubmed } from '../src/sources/pubmed.js';
import { parseResponse as parseScopus } from '../src/sources/scopus.js';
import { parseResponse as parseSemanticScholar } from '../src/sources/semanticscholar.js';
import { parseResponse as parseSpringer } from '../src/sources/springer.js';
import { parseResponse as parseZenodo } from '../src/sources/zenodo.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { fixture } from './_setup.js';

const names = (...list: string[]) => peopleOf(list.map((name) => ({ name })));
const verdict = (a: ReturnType<typeof names>, b: ReturnType<typeof names>) => compareAuthors(a, b).verdict;
const relation = (a: string, b: string) => compareTitles(titleForms(a), titleForms(b)).relation;

test('one person however the name is written: initials, family first with or without a comma, TeX accents, diacritics', () => {
  const jane = personOf({ name: 'Jane A. Müller' })!;
  for (const written of ['J. A. Müller', 'Müller, Jane', 'Müller JA', 'Muller J.A.', 'M{\\"u}ller, J.', 'Jane Mueller', 'J Muller']) {
    assert.ok(samePerson(jane, personOf({ name: written })!), written);
  }
  assert.ok(samePerson(personOf({ name: 'Andres M. Bran', given: 'Andres', family: 'M. Bran' })!, personOf({ name: 'Bran A' })!), "Crossref's family with an initial in it");
  assert.ok(samePerson(personOf({ name: 'Wang Wei' })!, personOf({ name: 'Wei Wang' })!), 'given and family written the other way round');
  assert.not.ok(samePerson(jane, personOf({ name: 'John Müller' })!), 'two spelled-out given names that differ');
  assert.not.ok(samePerson(jane, personOf({ name: 'Jane Miller' })!));
});

test('author lists: et al., a missing author and reordering agree; a shared surname and initial with no co-author in common does not', () => {
  const full = names('Jane Smith', 'Ann Doe', 'Bo Roe', 'Cy Poe');
  assert.is(verdict(full, names('Smith J', 'Doe A', 'Roe B', 'Poe C')), 'agree');
  assert.is(verdict(full, names('Smith J', 'et al.')), 'agree', 'a list cut short with et al.');
  assert.ok(names('Smith J', 'et al.').truncated);
  assert.is(verdict(full, names('Jane Smith', 'Bo Roe', 'Cy Poe')), 'agree', 'one author missing');
  assert.is(verdict(full, names('Doe, Ann', 'Smith, Jane')), 'agree');
  assert.is(verdict(full, names('J. Smith', 'K. Kim', 'L. Lee')), 'disagree', 'first authors share surname and initial, nobody else');
  assert.is(verdict(full, names()), 'unknown');
});

test('titles: markup, TeX, spelling and hyphenation do not make two titles; a dropped subtitle is recognised', () => {
  assert.is(titleKey('<i>In vivo</i> imaging of &alpha;-synuclein &amp; tau'), titleKey('In vivo imaging of α-synuclein & tau'));
  assert.is(titleKey('\\emph{In vivo} imaging of $\\alpha$-synuclein \\& tau in Schr{\\"o}dinger mice'), 'in vivo imaging of alpha synuclein tau in schrodinger mice');
  assert.is(relation('Modelling tumour growth in paediatric patients', 'Modeling tumor growth in pediatric patients'), 'equal');
  assert.is(relation('COVID-19 vaccine uptake among health-care workers', 'COVID19 vaccine uptake among healthcare workers'), 'equal');
  assert.is(relation('Deep learning for breast cancer screening: a systematic review', 'Deep learning for breast cancer screening'), 'subtitle_dropped');
  assert.is(relation('Introduction: a systematic review', 'Introduction'), 'different', 'a main title too short to stand for the whole');
  assert.is(relation('Control of a flexible robot arm, Part II: experiments', 'Control of a flexible robot arm'), 'different', 'a subtitle that numbers a part');
  assert.is(relation('Deep learning for breast cancer screening: a systematic review', 'Deep learning for breast cancer screening: a randomised trial'), 'word_swapped', 'two subtitles, two words put in for two others');
  assert.is(relation('Detecting misinformation on Twitter and Twitter bots', 'Detecting misinformation on Reddit and Reddit bots'), 'word_swapped', 'a word swapped wherever it stands');
});

test('titles: one content word swapped (species, organ, cancer type, platform, place) is not the same title; numbers and parts differ', () => {
  for (const [a, b] of [
    ['Single-cell atlas of the mouse liver during ageing', 'Single-cell atlas of the rat liver during ageing'],
    ['Single-cell atlas of the mouse liver during ageing', 'Single-cell atlas of the mouse kidney during ageing'],
    ['Immune checkpoint inhibitors in advanced melanoma: real-world outcomes', 'Immune checkpoint inhibitors in advanced glioma: real-world outcomes'],
    ['Detecting misinformation on Twitter with transformers', 'Detecting misinformation on Reddit with transformers'],
    ['Seroprevalence of SARS-CoV-2 antibodies in Niger', 'Seroprevalence of SARS-CoV-2 antibodies in Nigeria'],
    ['Liver fibrosis in mouse models of obesity', 'Kidney fibrosis in rat models of obesity'],
  ]) {
    const c = compareTitles(titleForms(a!), titleForms(b!));
    assert.is(c.relation, 'word_swapped', `${a} / ${b}`);
  }
  assert.is(relation('Control of a robot arm, Part I: kinematics', 'Control of a robot arm, Part II: kinematics'), 'different');
  assert.is(relation('Excess mortality in 2020', 'Excess mortality in 2021'), 'different');
});

// Each source's own word for a type, in a real answer with only that field changed.
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));
const only = (records: NormalizedRecord[]) => {
  assert.is(records.length, 1);
  return records[0]!;
};
const classOf = (r: NormalizedRecord) => workClass(r.type, r.title, r.venue);

test("types from each source's vocabulary: dataset, software, thesis, notice, comment, review of another work, conference abstract", () => {
  const crossref = json('crossref/work-10.3389_fgene.2017.00147-relation-has-preprint.json').message;
  assert.is(classOf(parseCrossrefWork({ ...crossref, type: 'dataset' })!), 'dataset');
  assert.is(classOf(parseCrossrefWork({ ...crossref, type: 'dissertation' })!), 'thesis');
  assert.is(classOf(parseCrossrefWork({ ...crossref, type: 'posted-content', subtype: 'dissertation' })!), 'thesis');
  assert.is(classOf(parseCrossrefWork({ ...crossref, type: 'peer-review' })!), 'review-of-work');
  assert.is(classOf(parseCrossrefWork({ ...crossref, 'update-to': [{ type: 'erratum', DOI: '10.3389/x' }] })!), 'notice', 'an erratum typed journal-article that updates another work');
  assert.is(classOf(parseCrossrefWork(crossref)!), 'paper');

  const openalex = json('openalex/works-filter-title-search-1-result.json');
  const withType = (type: string) => only(parseOpenAlex(JSON.stringify({ ...openalex, results: [{ ...openalex.results[0], type }] })).records);
  assert.equal(['dataset', 'dissertation', 'erratum', 'peer-review', 'article'].map((t) => classOf(withType(t))), ['dataset', 'thesis', 'notice', 'review-of-work', 'paper']);

  const zenodo = json('zenodo/records-communities-ipbes-size1-page1.json');
  const zenodoAs = (resource_type: unknown) => only(parseZenodo(JSON.stringify({ ...zenodo, hits: { ...zenodo.hits, hits: [{ ...zenodo.hits.hits[0], metadata: { ...zenodo.hits.hits[0].metadata, resource_type } }] } })).records);
  assert.is(classOf(zenodoAs({ type: 'dataset', title: 'Dataset' })), 'dataset');
  assert.is(classOf(zenodoAs({ type: 'software', title: 'Software' })), 'software');
  assert.is(classOf(zenodoAs({ type: 'poster', title: 'Poster' })), 'abstract');
  assert.is(classOf(zenodoAs({ type: 'publication', subtype: 'thesis' })), 'thesis');
  assert.is(classOf(zenodoAs({ id: 'dataset', title: { en: 'Dataset' } })), 'dataset', "the current API's resource type id");
  assert.is(classOf(zenodoAs({ id: 'publication-article' })), 'paper');

  const dblp = json('dblp/publ-search-test-h1-f1.json');
  const dblpAs = (info: Record<string, unknown>) => {
    const hit = dblp.result.hits.hit[0];
    return only(parseDblp(JSON.stringify({ result: { ...dblp.result, hits: { ...dblp.result.hits, hit: [{ ...hit, info: { ...hit.info, ...info } }] } } })).records);
  };
  assert.is(classOf(dblpAs({ type: 'Data and Artifacts', ee: 'https://github.com/example/tool/tree/v1.0' })), 'software', 'a code record');
  assert.is(classOf(dblpAs({ type: 'Data and Artifacts', ee: 'https://doi.org/10.5281/zenodo.123' })), 'dataset');
  assert.is(classOf(dblpAs({ type: 'Books and Theses', key: 'phd/de/Shinogi2006' })), 'thesis');

  const epmc = json('europepmc/search-cancer-lite.json');
  const epmcAs = (fields: Record<string, unknown>) => only(parseEuropePmc(JSON.stringify({ ...epmc, resultList: { result: [{ ...epmc.resultList.result[0], ...fields }] } })).records);
  assert.is(classOf(epmcAs({ pubType: 'comment; journal article' })), 'comment');
  assert.is(classOf(epmcAs({ pubType: 'meeting abstract' })), 'abstract');
  assert.is(classOf(epmcAs({ source: 'ETH' })), 'thesis');
  assert.is(classOf(epmcAs({ pubType: 'published erratum; correction' })), 'notice');

  const pubmedXml = fixture('pubmed/efetch-pubmed-28424752-labelled-abstract-pmc.xml').toString('utf8');
  const pubmedAs = (type: string) => only(parsePubmed(pubmedXml.replace(/<PublicationTypeList>[\s\S]*?<\/PublicationTypeList>/, `<PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType><PublicationType UI="X">${type}</PublicationType></PublicationTypeList>`)).records);
  assert.equal(['Comment', 'Congress', 'Dataset', 'Academic Dissertation', 'Published Erratum', 'Review'].map((t) => classOf(pubmedAs(t))), ['comment', 'abstract', 'dataset', 'thesis', 'notice', 'paper']);

  const scopus = json('scopus/search-scopus-title-abs-key-ml-nlp-2020-2022-count25.json');
  const scopusAs = (subtype: string) => only(parseScopus(JSON.stringify({ 'search-results': { ...scopus['search-results'], entry: [{ ...scopus['search-results'].entry[0], subtype }] } })).records);
  assert.equal(['ab', 'er', 'dp', 'ar'].map((t) => classOf(scopusAs(t))), ['abstract', 'notice', 'paper', 'paper'], 'a Data Paper is an article about a dataset');

  const hal = json('hal/search-authIdPerson_i-1063453-fl-all-first1-of-51.json');
  const halAs = (docType_s: string) => only(parseHal(JSON.stringify({ ...hal, response: { ...hal.response, docs: [{ ...hal.response.docs[0], docType_s }] } })).records);
  assert.equal(['SOFTWARE', 'THESE', 'POSTER', 'ART'].map((t) => classOf(halAs(t))), ['software', 'thesis', 'abstract', 'paper']);

  const ads = { responseHeader: {}, response: { numFound: 1, docs: [{ ...json('ads/search-query-persson-origin-of-water-fl-abstract.json').response.docs[0] }] } };
  const adsAs = (doctype: string) => only(parseAds(JSON.stringify({ ...ads, response: { ...ads.response, docs: [{ ...ads.response.docs[0], doctype }] } })).records);
  assert.equal(['abstract', 'software', 'catalog', 'phdthesis', 'bookreview', 'article'].map((t) => classOf(adsAs(t))), ['abstract', 'software', 'dataset', 'thesis', 'review-of-work', 'paper']);

  const orcid = json('orcid/works-0000-0002-9341-7985.json');
  const orcidAs = (type: string) => {
    const group = orcid.group[0];
    return only(parseOrcid(JSON.stringify({ ...orcid, group: [{ ...group, 'work-summary': [{ ...group['work-summary'][0], type }] }] })).records);
  };
  assert.equal(['software', 'data-set', 'dissertation-thesis', 'conference-abstract', 'conference-poster', 'book-review', 'journal-article'].map((t) => classOf(orcidAs(t))), [
    'software', 'dataset', 'thesis', 'abstract', 'abstract', 'review-of-work', 'paper',
  ]);

  const plos = json('plos/search-alcohol-rows5-hl-abstract.json');
  const plosAs = (article_type: string) => only(parsePlos(JSON.stringify({ ...plos, response: { ...plos.response, docs: [{ ...plos.response.docs[0], article_type }] } })).records);
  assert.equal(['Formal Comment', 'Correction', 'Research Article'].map((t) => classOf(plosAs(t))), ['comment', 'notice', 'paper']);

  const s2 = json('semanticscholar/paper-search-turing-first3-of-100.json');
  const s2As = (publicationTypes: string[]) => only(parseSemanticScholar(JSON.stringify({ ...s2, data: [{ ...s2.data[0], publicationTypes }] })).records);
  assert.is(classOf(s2As(['Dataset'])), 'dataset');
  assert.is(classOf(s2As(['Editorial'])), 'comment');

  const springer = json('springer/metadata-json-doi-10.1007_s11306-017-1242-7.json');
  const springerAs = (genre: string[]) => only(parseSpringer(JSON.stringify({ ...springer, records: [{ ...springer.records[0], genre }] })).records);
  assert.equal([['BookReview'], ['Erratum'], ['ReviewPaper', 'Review Article']].map((g) => classOf(springerAs(g))), ['review-of-work', 'notice', 'paper']);
});

test('titles, venues and data repositories say what a source types as an article or not at all: notices, comments, reviews of another work, numbered meeting abstracts, abstract supplements, data', () => {
  assert.is(workClass('article', 'Erratum to: Deep learning for X'), 'notice');
  assert.is(workClass('article', 'Reply to: Comment on deep learning for X'), 'comment');
  assert.is(workClass('article', 'Abstract 2345: Tumour growth in mice'), 'abstract');
  assert.is(workClass('article', 'p53: guardian of the genome'), 'paper', 'a gene name is not an abstract number');
  assert.is(workClass('article', 'Tumour growth in mice', 'Cancer Research: Meeting Abstracts'), 'abstract');
  assert.is(workClass(undefined, 'Tumour growth in mice', 'Dissertation Abstracts International'), 'thesis');
  assert.is(workClass('article', 'Referee report for: Tumour growth in mice'), 'review-of-work');
  assert.is(workClass('article', 'Review of deep learning for tumour detection'), 'paper', 'a review article');
  assert.is(workClass('article', 'Re: Tumour growth in mice'), 'comment');
  assert.is(workClass('other', 'Tumour growth in mice', null, '10.5061/dryad.abc123'), 'dataset', 'a Dryad record of no known type');
  assert.is(workClass(undefined, 'Tumour growth in mice', null, '10.5281/zenodo.123'), 'paper', 'Zenodo holds papers too: its type decides');
});

test.run();
