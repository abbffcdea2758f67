import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import type { DocumentView } from '../src/corpus/read.js';
import { escapeLatex, renderBibtex, uniqueKeys } from '../src/exports/bibtex.js';
import { renderCsv } from '../src/exports/csv.js';
import { renderJson } from '../src/exports/json.js';
import { renderRis } from '../src/exports/ris.js';

const require = createRequire(import.meta.url);
const { Cite } = require('@citation-js/core');
require('@citation-js/plugin-ris');

function doc(over: Partial<DocumentView>): DocumentView {
  return {
    id: 1, title: 'A title', authors: [], abstract: null, publication_date: '2020-05-17', date_precision: 'day', year: 2020, venue: 'Journal of Tests',
    doi: '10.1234/abc', arxiv_id: null, pmid: null, pmcid: null, ids: {}, url: 'https://doi.org/10.1234/abc', pdf_url: null, categories: [], license: null,
    open_access: null, type: 'journal-article', is_retracted: false, relations: [], first_seen_at_utc: '2026-01-01T00:00:00.000Z', ...over,
  };
}

const tricky = doc({
  id: 7,
  title: 'Costs & benefits: 50% of {x}_i ~ $y^2$ #1 \\ Ünïcode — naïve résumé 東京',
  authors: [{ name: 'José Ñúñez', given: 'José', family: 'Ñúñez' }, { name: 'ACME Consortium' }, { name: "Mary O'Brien", given: 'Mary', family: "O'Brien" }],
  abstract: 'Line one,\r\nline "two", and a comma.',
  categories: ['Ecology', 'R&D'],
});
const docs = [tricky, doc({ id: 3, title: 'The same first author and year', authors: [{ name: 'José Ñúñez', given: 'José', family: 'Ñúñez' }], doi: '10.1234/def' }), doc({ id: 2, title: 'Costs again', authors: [{ name: 'José Ñúñez', given: 'José', family: 'Ñúñez' }], type: 'preprint', venue: null, doi: null, arxiv_id: '2001.01234' })];

test('escapeLatex escapes every special character (braces as \\textbraceleft{} and \\textbraceright{}, which BibTeX does not count) and keeps Unicode', () => {
  assert.is(escapeLatex('a & b % c $ d # e _ f { g } h ~ i ^ j \\ k'), 'a \\& b \\% c \\$ d \\# e \\_ f \\textbraceleft{} g \\textbraceright{} h \\textasciitilde{} i \\textasciicircum{} j \\textbackslash{} k');
  assert.is(escapeLatex('Ünïcode 東京'), 'Ünïcode 東京');
});

test('BibTeX parses with a real BibTeX parser, special characters round-trip, Unicode kept', async () => {
  const text = renderBibtex(docs, { includeIds: true });
  const parsed = parseBibtex(text, { sentenceCase: false } as never) as any;
  assert.equal(parsed.errors, []);
  assert.is(parsed.entries.length, 3);
  const first = parsed.entries[0];
  assert.is(first.type, 'article');
  assert.is(first.fields.title, tricky.title);
  assert.equal(first.fields.author.map((a: any) => a.lastName ?? a.name), ['Ñúñez', 'ACME Consortium', "O'Brien"]);
  assert.is(first.fields.doi, '10.1234/abc');
  assert.is(first.fields.year, '2020');
  assert.is(parsed.entries[2].type, 'misc');
  assert.is(parsed.entries[2].fields.eprint, '2001.01234');
});

test('BibTeX: DOI, URL and eprint are verbatim fields: no LaTeX escapes inside them, braces cannot break the entry', () => {
  const odd = doc({ doi: '10.1175/jcli_d_19-0123.1', url: 'https://example.org/a_b%20c?x=1&y=2#frag', arxiv_id: 'hep-th/9901001' });
  const braces = doc({ id: 2, title: 'Braces', doi: '10.1002/x{1}', url: 'https://example.org/{a}\\b' });
  const parsed = parseBibtex(renderBibtex([odd, braces]), { sentenceCase: false } as never) as any;
  assert.equal(parsed.errors, []);
  assert.is(parsed.entries[0].fields.doi, '10.1175/jcli_d_19-0123.1');
  assert.is(parsed.entries[0].fields.url, 'https://example.org/a_b%20c?x=1&y=2#frag');
  assert.is(parsed.entries[0].fields.eprint, 'hep-th/9901001');
  assert.is(parsed.entries[1].fields.doi, '10.1002/x%7B1%7D');
  assert.is(parsed.entries[1].fields.url, 'https://example.org/%7Ba%7D%5Cb');
});

test('RIS: a conference paper is CPAPER, the venue is T2 (read back as the journal of a JOUR), PMCID kept', () => {
  const paper = doc({ id: 4, type: 'proceedings', venue: 'Proceedings of Tests', doi: '10.1145/1234.5678' });
  const article = doc({ id: 5, type: 'article', pmcid: 'PMC123456', pmid: '98765' });
  const text = renderRis([paper, article]);
  assert.match(text, /^TY  - CPAPER\r\n/);
  assert.match(text, /T2  - Proceedings of Tests\r\n/);
  assert.match(text, /N1  - PMCID:PMC123456\r\n/);
  const items = new Cite(text).data;
  assert.is(items[0].type, 'paper-conference');
  assert.is(items[0].DOI, '10.1145/1234.5678');
  assert.is(items[1].type, 'article-journal');
  assert.is(items[1]['container-title'], 'Journal of Tests');
});

test('BibTeX keys are unique within a file', () => {
  const same = [doc({ id: 1, authors: [{ name: 'A Smith', family: 'Smith' }] }), doc({ id: 2, authors: [{ name: 'A Smith', family: 'Smith' }] }), doc({ id: 3, authors: [{ name: 'A Smith', family: 'Smith' }] })];
  const keys = uniqueKeys(same);
  assert.equal(keys, ['smith2020title', 'smith2020titlea', 'smith2020titleb']);
  const many = uniqueKeys(Array.from({ length: 60 }, (_, i) => doc({ id: i })));
  assert.is(new Set(many).size, 60);
  assert.ok(uniqueKeys([doc({ authors: [{ name: 'Ñúñez', family: 'Ñúñez' }] })])[0]!.match(/^[a-z0-9]+$/), 'keys are ASCII');
});

test('RIS uses the standard tags and round-trips through a RIS reader', () => {
  const text = renderRis(docs);
  assert.match(text, /^TY  - JOUR\r\n/);
  assert.is((text.match(/\r\nER  - /g) ?? []).length, 3);
  const items = new Cite(text).data;
  assert.is(items.length, 3);
  assert.is(items[0].title, tricky.title);
  assert.equal(items[0].author.map((a: any) => a.family ?? a.literal), ['Ñúñez', 'ACME Consortium', "O'Brien"]);
  assert.is(items[0].DOI, '10.1234/abc');
  assert.equal(items[0].issued['date-parts'][0].slice(0, 1), [2020]);
  assert.is(items[0].abstract, 'Line one, line "two", and a comma.');
});

test('CSV is RFC 4180 with a header row and parses back to the same fields', () => {
  const text = renderCsv(docs, { includeIds: true });
  assert.ok(text.endsWith('\r\n'));
  const rows = parseCsv(text, { columns: true, relax_column_count: false }) as Record<string, string>[];
  assert.is(rows.length, 3);
  assert.is(rows[0]!.document_id, '7');
  assert.is(rows[0]!.title, tricky.title);
  assert.is(rows[0]!.abstract, 'Line one,\r\nline "two", and a comma.');
  assert.is(rows[0]!.authors, "José Ñúñez; ACME Consortium; Mary O'Brien");
  assert.not.ok('document_id' in (parseCsv(renderCsv(docs), { columns: true }) as Record<string, string>[])[0]!);
});

test('JSON is stable: fixed keys, ids only on request', () => {
  const out = JSON.parse(renderJson(docs, { includeIds: true }));
  assert.is(out.format, 'svc-references');
  assert.is(out.version, 1);
  assert.is(out.count, 3);
  assert.equal(Object.keys(out.references[0]), ['id', 'title', 'authors', 'publication_date', 'year', 'venue', 'doi', 'arxiv_id', 'pmid', 'pmcid', 'url', 'pdf_url', 'type', 'is_retracted', 'categories', 'abstract']);
  assert.not.ok('id' in JSON.parse(renderJson(docs)).references[0]);
  assert.is(renderJson(docs), renderJson(docs), 'deterministic');
});

test.run();
