/**
 * Links say what kind of sameness they claim (issue 33 item 2): same_work or
 * related_version, with the evidence (identifiers, how the titles differed,
 * authors shared, years apart); the status counts by kind; a collapse folds
 * same-work links only; svc links show prints kind and evidence; a completed
 * scan leaves only the links the current rules make. The titles and authors
 * are real (a PLOS record, test/fixtures/plos); the look-alikes are derived.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext, type Context } from '../src/context.js';
import { runLinkScan } from '../src/similarity/link-scan.js';
import { collapsePreview, linkStatus } from '../src/similarity/links.js';
import { parseResponse as parsePlos } from '../src/sources/plos.js';
import { fixture, runCli, tempDirs, type TempDirs } from './_setup.js';
import { seedDocuments, type SeedDoc } from './_similarity.js';

const [paper, other] = parsePlos(fixture('plos/search-alcohol-rows5-hl-abstract.json').toString('utf8')).records;
// "The Huge Reduction in Adult Male Mortality in Belarus and Russia: Is It Attributable to Anti-Alcohol Measures?" (2015)
const title = other!.title;
const authors = other!.authors;
const year = Number(other!.publicationDate!.slice(0, 4));
const base: SeedDoc = { title, authors, year, doi: other!.doi, doc_type: 'article', venue: 'PLOS ONE' };

let dirs: TempDirs;
let ctx: Context;
const id: Record<string, number> = {};
test.before(() => {
  dirs = tempDirs();
  ctx = createContext({ env: dirs.env });
  const docs: Record<string, SeedDoc> = {
    paper: base,
    // The same paper elsewhere: the subtitle dropped, authors family-first with initials, no DOI.
    copy: { title: title.replace(/: .*$/, ''), authors: authors.map((a) => ({ name: `${a.family}, ${a.given![0]}.` })), year: year + 1, doc_type: 'article' },
    abstract: { ...base, doi: null, year: year - 1, doc_type: 'conference-abstract', venue: 'European Congress of Epidemiology' },
    thesis: { ...base, doi: null, authors: authors.slice(0, 1), year: year + 2, doc_type: 'thesis', venue: null },
    dataset: { ...base, doi: '10.5281/zenodo.4242', doc_type: 'dataset', venue: 'Zenodo' },
    // One content word swapped (a country for another): another study by the same group.
    swapped: { ...base, title: title.replace('Belarus', 'Ukraine'), doi: '10.5555/other-country' },
    // The same words, a first author of the same surname and initial, no co-author in common.
    namesake: { ...base, doi: '10.5555/namesake', authors: [{ name: `${authors[0]!.given![0]}. ${authors[0]!.family}` }, ...paper!.authors.slice(1)] },
  };
  const ids = seedDocuments(ctx.db, Object.values(docs));
  Object.keys(docs).forEach((k, i) => (id[k] = ids[i]!));
});
test.after(async () => {
  await ctx.close();
  dirs.cleanup();
});

const linkBetween = (a: number, b: number) =>
  ctx.db.prepare('SELECT kind, method, evidence_json FROM document_links WHERE document_a = ? AND document_b = ?').get(Math.min(a, b), Math.max(a, b)) as { kind: string; method: string; evidence_json: string } | undefined;

test('same work, related versions, and no link for a dataset, a swapped word or a namesake', async () => {
  const scan = await runLinkScan(ctx);
  assert.is(scan.state, 'completed');
  const copy = linkBetween(id.paper!, id.copy!);
  assert.equal([copy?.kind, copy?.method], ['same_work', 'title_variant']);
  const evidence = JSON.parse(copy!.evidence_json);
  assert.equal([evidence.title_difference, evidence.shared_authors, evidence.year_gap, evidence.identifiers.dois], ['subtitle_dropped', 2, 1, [other!.doi, null]]);
  assert.equal([linkBetween(id.paper!, id.abstract!)?.kind, linkBetween(id.paper!, id.abstract!)?.method], ['related_version', 'abstract_and_paper']);
  assert.equal([linkBetween(id.paper!, id.thesis!)?.kind, linkBetween(id.paper!, id.thesis!)?.method], ['related_version', 'thesis_and_paper']);
  for (const k of ['dataset', 'swapped', 'namesake']) assert.is(linkBetween(id.paper!, id[k]!), undefined, k);

  const count = (kind: string) => ctx.db.prepare('SELECT count(*) FROM document_links WHERE kind = ?').pluck().get(kind);
  const status = linkStatus(ctx);
  assert.equal(status.by_kind, { same_work: count('same_work'), related_version: count('related_version') });
  assert.ok(status.by_kind.related_version! >= 2 && status.by_kind.same_work! >= 1);
  assert.equal(status.kinds, ['same_work', 'related_version']);
  assert.is(status.by_method.abstract_and_paper! + status.by_method.thesis_and_paper!, status.by_kind.related_version);
});

test('a collapse folds same-work links only: the abstract and the thesis stay', () => {
  const preview = collapsePreview(ctx, [id.paper!, id.copy!, id.abstract!, id.thesis!]);
  assert.equal(preview.groups.map((g) => [g.keep, g.fold]), [[id.paper!, [id.copy!]]]);
  assert.equal(preview.kept_ids.sort((a, b) => a - b), [id.paper!, id.abstract!, id.thesis!].sort((a, b) => a - b));
});

test('a swapped word with a source naming the other version is one work: the identifier says so', async () => {
  ctx.db.prepare('UPDATE documents SET relations_json = ? WHERE id = ?').run(JSON.stringify([{ kind: 'has_version', doi: '10.5555/other-country' }]), id.paper!);
  await runLinkScan(ctx);
  assert.equal([linkBetween(id.paper!, id.swapped!)?.kind, linkBetween(id.paper!, id.swapped!)?.method], ['same_work', 'relation']);
});

test('svc links show prints each link’s kind and evidence; svc links status counts by kind', async () => {
  const show = await runCli(['links', 'show', String(id.paper!)], { env: dirs.env });
  assert.is(show.code, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`${id.copy} {2}same_work \\(title_variant, [0-9.]+\\) {2}${year + 1} .*\\n {4}a DOI on one side only \\(${other!.doi!.replace(/\./g, '\\.')}\\); a subtitle on one side only; 2 of 2 authors shared; 1 year apart`));
  assert.match(show.stdout, new RegExp(`${id.abstract} {2}related_version \\(abstract_and_paper, [0-9.]+\\) {2}${year - 1} .*\\n {4}(a conference abstract and a paper|a paper and a conference abstract); titles equal; 2 of 2 authors shared; 1 year apart`));
  const status = await runCli(['links', 'status'], { env: dirs.env });
  assert.match(status.stdout, new RegExp(`^by kind\\n(  \\w+ +\\d+\\n)*  related_version +${linkStatus(ctx).by_kind.related_version}\\n`), status.stdout);
  assert.match(status.stdout, /\n\nby method\n(  \w+ +\d+\n)+\ntotal \d+\n/, status.stdout);
});

test('a completed scan removes the links the rules no longer make (a link from before schema 35, a relation a source no longer states); a cancelled one keeps them', async () => {
  ctx.db.prepare("UPDATE documents SET relations_json = '[]' WHERE id = ?").run(id.paper!);
  // As an older scan left it: the dataset linked as the same work.
  ctx.db.prepare("INSERT INTO document_links (document_a, document_b, method, score, evidence_json, created_at_utc) VALUES (?, ?, 'title_variant', 0.9, '{}', 'x')").run(Math.min(id.paper!, id.dataset!), Math.max(id.paper!, id.dataset!));
  assert.is(linkBetween(id.paper!, id.dataset!)?.kind, 'same_work', 'every link before kinds claimed the same work');
  const cancelled = await runLinkScan(ctx, { isCancelled: () => true });
  assert.is(cancelled.state, 'cancelled');
  assert.ok(linkBetween(id.paper!, id.dataset!), 'kept by a scan that did not judge everything');
  const scan = await runLinkScan(ctx);
  assert.is(scan.state, 'completed');
  assert.is(linkBetween(id.paper!, id.dataset!), undefined);
  assert.is(linkBetween(id.paper!, id.swapped!), undefined);
  assert.is(scan.links_removed, 2);
  assert.ok(linkBetween(id.paper!, id.copy!), 'links found again stay');
});


test.run();
