import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { tempDirs, type TempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { makeRecord, seed } from './_corpus.js';

let dirs: TempDirs;
let ids: number[];
const svc = (...args: string[]) => runCliInProcess(args, { env: dirs.env });
const json = async (...args: string[]) => {
  const r = await svc('--json', ...args);
  assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

test.before(async () => {
  dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  ids = seed(ctx, Array.from({ length: 12 }, (_, i) => makeRecord(i + 1, { title: i % 2 ? `Soil carbon ${i}` : `Coral reef ${i}`, categories: i % 2 ? ['Ecology'] : ['Marine'] })));
  seed(ctx, [makeRecord(13, { title: 'Quantum dots in glass', authors: [{ name: 'Smith, Jane' }, { name: 'Doe, John' }], categories: ['Physics, Applied'] })]);
  await ctx.close();
});
test.after(() => dirs.cleanup());

test('explore: pages with --next, filters, facets, export; --json is one document', async () => {
  const first = await json('explore', '--limit', '5');
  assert.is(first.papers.length, 5);
  const second = await json('explore', '--limit', '5', '--next', first.next_cursor);
  assert.not.ok(second.papers.some((p: any) => first.papers.some((q: any) => q.id === p.id)));
  const human = await svc('explore', 'soil', '--limit', '2');
  assert.is(human.code, 0);
  assert.match(human.stdout, /Soil carbon/);
  assert.match(human.stderr, /--next \S+/);
  assert.is((await json('explore', '--category', 'Marine')).papers.length, 6);
  const facets = await json('explore', '--facets', 'soil');
  assert.is(facets.total, 6);
  const exported = await json('explore', '--category', 'Ecology', '--export', 'ris');
  assert.is(exported.count, 6);
  assert.match(exported.text, /TY {2}- /);
  const file = path.join(dirs.root, 'out.bib');
  assert.is((await svc('explore', '--export', 'bibtex', '-o', file)).code, 0);
  assert.match(fs.readFileSync(file, 'utf8'), /@article|@misc/);
  const semantic = await json('explore', 'soil', '--mode', 'semantic');
  assert.is(semantic.mode_unavailable.reason, 'no_vectors');
});

test('explore: an author or category value is taken whole, commas and all; the flag repeats', async () => {
  const byAuthor = await json('explore', '--author', 'Smith, Jane');
  assert.equal(byAuthor.papers.map((p: any) => p.title), ['Quantum dots in glass']);
  assert.is((await json('explore', '--category', 'Physics, Applied')).papers.length, 1);
  assert.is((await json('explore', '--category', 'Physics, Applied', '--category', 'Marine')).papers.length, 7);
  assert.is((await json('explore', '--source', 'crossref,arxiv')).papers.length, 13);
});

test('explore: bad flags exit 2 naming the flag, before anything runs', async () => {
  for (const [args, flag] of [
    [['--limit', '0'], '--limit'],
    [['--limit', '1.5'], '--limit'],
    [['--sort', 'oldest'], '--sort'],
    [['--from', '2020-13-01'], '--from'],
    [['--from', '2021-01-02', '--to', '2021-01-01'], '--from'],
    [['--export', 'docx'], '--export'],
    [['--sort', 'relevance'], '--sort'],
    [['--next', 'garbage'], 'cursor'],
  ] as const) {
    const r = await svc('explore', ...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(flag.replace(/-/g, '\\-')));
  }
  const r = await svc('--json', 'explore', '--limit', 'abc');
  assert.is(r.code, 2);
  assert.is(JSON.parse(r.stdout).error, 'invalid_flag');
});

test('explore: a refused cursor, query or filter value names the flag that carried it (exit 2, one line, invalid_flag under --json)', async () => {
  for (const [args, flag] of [
    [['--next', 'garbage'], '--next'],
    [['--next', (await json('explore', '--limit', '1')).next_cursor, 'soil'], '--next'],
    [['!!!'], 'The query'],
    [['--category', ''.padEnd(301, 'c')], '--category'],
  ] as const) {
    const r = await svc('explore', ...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.is(lines.length, 1, r.stderr);
    assert.ok(lines[0]!.startsWith(`svc: ${flag}${flag === 'The query' ? ' ' : ': '}`), r.stderr);
    assert.ok(lines[0]!.endsWith('.'), r.stderr);
    const j = await svc('--json', 'explore', ...args);
    assert.equal([j.code, JSON.parse(j.stdout).error], [2, 'invalid_flag']);
  }
});

test('explore --facets: --help and svc-corpus(1) say --limit caps authors, categories and sources and every year is listed', async () => {
  const help = await svc('explore', '--help');
  assert.match(help.stdout.replace(/\s+/g, ' '), /with --facets, authors, categories and sources listed per facet, 1 to 200 \(default 20; every year is listed\)/);
  const page = fs.readFileSync(path.join(process.cwd(), 'man', 'svc-corpus.1'), 'utf8').replace(/\n/g, ' ');
  assert.not.match(page, /top 20 per facet/);
  assert.match(page, /every year is listed whatever the limit, newest first, undated last/);
});

test('explore: an empty --next is refused (exit 2, one line saying to leave it out), not read as the first page', async () => {
  for (const value of ['', ' ']) {
    const r = await svc('explore', '--next', value);
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n'), ['svc: --next is empty; leave --next out to start from the first page.']);
  }
});

test('explore: a refused cursor says what to do at the command line: leave --next out (not "without a cursor")', async () => {
  const foreign = await svc('explore', '--next', 'garbage');
  assert.match(foreign.stderr, /copy the whole --next value a page printed, or leave --next out to start from the first page/);
  const other = await svc('explore', 'soil', '--next', (await json('explore', '--limit', '1')).next_cursor);
  assert.match(other.stderr, /another query, filters, sort, mode or --exhaustive; give the ones of the page that printed it, or leave --next out/);
  for (const r of [foreign, other]) assert.not.match(r.stderr, /without a cursor|next_cursor/);
});

test('queue: add (twice), read, unread, list, remove with --yes; missing ids exit 3', async () => {
  const added = await json('queue', 'add', String(ids[0]));
  assert.is(added.created, true);
  assert.is((await json('queue', 'add', String(ids[0]))).created, false);
  await json('queue', 'add', String(ids[1]));
  assert.is((await json('queue', 'read', String(ids[0]))).status, 'read');
  assert.is((await json('queue', 'list', '--status', 'unread')).total, 1);
  assert.is((await json('queue', 'list')).total, 2);
  assert.is((await json('queue', 'unread', String(ids[0]))).status, 'unread');
  assert.is((await svc('queue', 'remove', String(ids[1]))).code, 2, 'no terminal, no --yes');
  assert.equal(await json('queue', 'remove', String(ids[1]), '--yes'), { document_id: ids[1], removed: true });
  assert.is((await svc('queue', 'read', String(ids[5]))).code, 3);
  assert.is((await svc('queue', 'add', '999999')).code, 3);
  assert.is((await svc('queue', 'add', 'x')).code, 2);
  assert.is((await svc('queue', 'list', '--status', 'done')).code, 2);
  const human = await svc('queue', 'list');
  assert.match(human.stdout, /1 saved \(1 unread, 0 read\)/);
});

test('queue list: a status filter says its total of the saved papers, a cut page names the next --offset, and a miss says what to do', async () => {
  for (const e of (await json('queue', 'list')).entries) await json('queue', 'remove', String(e.document_id), '--yes');
  for (const id of ids.slice(6, 9)) await json('queue', 'add', String(id));
  await json('queue', 'read', String(ids[6]));
  const unread = await svc('queue', 'list', '--status', 'unread');
  assert.is(unread.code, 0, unread.stderr);
  assert.match(unread.stdout, /\n2 unread of 3 saved \(2 unread, 1 read\)\n$/);
  const cut = await svc('queue', 'list', '--limit', '2');
  assert.match(cut.stdout, /\n3 saved \(2 unread, 1 read\)\n$/);
  assert.is(cut.stderr, 'more: svc queue list --limit 2 --offset 2\n');
  // The whole next command, its filter kept, as library list and evidence notes print it.
  const cutUnread = await svc('queue', 'list', '--status', 'unread', '--limit', '1');
  assert.is(cutUnread.stderr, 'more: svc queue list --status unread --limit 1 --offset 1\n');
  assert.is((await svc('queue', 'list', '--limit', '2', '--offset', '2')).stderr, '');
  const again = await svc('queue', 'add', String(ids[7]));
  assert.match(again.stdout, new RegExp(`^${ids[7]} was already saved \\(unread\\) on \\d{4}-\\d{2}-\\d{2}\\.\\n$`));
  const missing = await svc('queue', 'read', String(ids[10]));
  assert.is(missing.code, 3);
  assert.is(missing.stderr, `svc: Document ${ids[10]} is not in the reading queue; \`svc queue list\` shows the saved papers and \`svc queue add\` saves one.\n`);
  for (const id of ids.slice(6, 9)) await json('queue', 'remove', String(id), '--yes');
});

test('why: human and JSON; unknown document exits 3', async () => {
  const why = await json('why', String(ids[0]));
  assert.is(why.document_id, ids[0]);
  assert.ok(why.cannot_verify.length > 0);
  const human = await svc('why', String(ids[0]));
  assert.match(human.stdout, /Cannot be verified here/);
  assert.match(human.stdout, /^First seen \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/m, 'to the minute, as every human view shows instants');
  assert.is((await svc('why', '999999')).code, 3);
  assert.is((await svc('why', '0')).code, 2);
});

test('explore --facets: a selected value is marked "(selected)" also when it is an author shown by its spelling', async () => {
  const r = await svc('explore', '--facets', '--author', 'doe, john', '--limit', '1');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^1 {2}Doe, John {2}\(selected\)$/m);
  const facets = await json('explore', '--facets', '--author', 'doe, john', '--limit', '1');
  assert.equal(facets.facets.authors.values.find((v: any) => v.selected), { value: 'doe, john', count: 1, selected: true, label: 'Doe, John' });
});

test('explore --facets: nothing matching is one line, not four headings over empty tables', async () => {
  assert.is((await svc('explore', 'zzyzx', '--facets')).stdout, 'No paper matches.\n');
  const r = await svc('explore', 'soil', '--facets');
  assert.match(r.stdout, /CATEGORIES \(1 value\)\n6 {2}Ecology\n/);
});

test('explore --facets: a facet cut at --limit says how many of its values are shown', async () => {
  const r = await svc('explore', '--facets', '--limit', '1');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^CATEGORIES \(3 values, the 1 with the most papers shown; --limit up to 200 shows more\)\n6 {2}\S+\n\n/m);
  assert.match(r.stdout, /^SOURCES \(1 value\)$/m, 'a facet shown whole says nothing more');
  const all = await svc('explore', '--facets', '--limit', '200');
  assert.match(all.stdout, /^CATEGORIES \(3 values\)$/m);
});

test('explore: a --source that is no source id is refused naming svc sources (a typo answered "No paper matches")', async () => {
  const r = await svc('explore', '--source', 'crossref,arxive');
  assert.is(r.code, 2);
  assert.match(r.stderr, /^svc: --source: no source is called "arxive"; `svc sources` lists the ids\.\n$/);
  assert.is((await json('explore', '--source', 'crossref')).papers.length, 13);
});

test('explore --export -o --json answers the envelope svc export references gives: {format, count, output} with the absolute path', async () => {
  const file = path.join(dirs.root, 'envelope.ris');
  const r = await svc('--json', 'explore', '--category', 'Ecology', '--export', 'ris', '-o', path.relative(process.cwd(), file));
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), { format: 'ris', count: 6, output: file });
});

test('explore: a query the man page allows but the command line cannot take says what to do, in one line', async () => {
  const dashed = await svc('explore', '-coral soil', '--limit', '2');
  assert.is(dashed.code, 2);
  assert.match(dashed.stderr, /^svc: unknown option '-coral soil' \(a value that starts with - goes last, after --: svc explore … -- "-coral soil"\); see svc explore --help\n$/);
  const after = await json('explore', '--limit', '50', '--', '-coral soil');
  assert.ok(after.papers.length > 0 && after.papers.every((p: any) => /Soil/.test(p.title)));
  const onlyExcluded = await svc('explore', '--', '-coral');
  assert.is(onlyExcluded.code, 2);
  assert.match(onlyExcluded.stderr, /^svc: The query only excludes words \(-word\); add at least one word to find\.\n$/);
  const long = await svc('explore', 'soil '.repeat(300));
  assert.is(long.code, 2);
  assert.match(long.stderr, /^svc: A query is at most 1000 characters; this one has 1499\.\n$/);
  const extra = await svc('queue', 'add', '1', '2');
  assert.is(extra.code, 2);
  assert.not.match(extra.stderr, /\.;/);
});

test('explore: a date with the right shape that is no day says so (it said "must be a date YYYY-MM-DD")', async () => {
  const r = await svc('explore', '--from', '2021-02-29');
  assert.is(r.code, 2);
  assert.is(r.stderr, 'svc: --from: 2021-02-29 is not a day of the calendar (2021-02 has 28 days).\n');
  assert.match((await svc('explore', '--to', '2021-13-01')).stderr, /\(there is no month 13\)/);
});

test('explore: an empty --author, --category or --source is refused (it dropped the filter and listed every paper)', async () => {
  for (const [flag, value] of [['--author', ''], ['--author', ' '], ['--category', ''], ['--source', ''], ['--source', ',']] as const) {
    const r = await svc('explore', flag, value);
    assert.is(r.code, 2, `${flag} ${JSON.stringify(value)}: ${r.stdout}`);
    assert.is(r.stdout, '');
    assert.is(r.stderr, `svc: ${flag} is empty; give a value or leave ${flag} out.\n`);
  }
  assert.is((await json('explore', '--author', 'Smith, Jane', '--source', 'crossref,')).papers.length, 1, 'a trailing comma is no empty value');
});

test('explore: a filter value too long, or too many of them, is refused in words (it said "Invalid length: Expected <=300 but received 301")', async () => {
  const long = await svc('explore', '--category', ''.padEnd(301, 'c'));
  assert.is(long.code, 2);
  assert.match(long.stderr, /^svc: --category: a value is at most 300 characters; "c+…" has 301\.\n$/);
  const many = await svc('explore', ...Array.from({ length: 101 }, (_, i) => ['--author', `Author ${i}`]).flat());
  assert.is(many.code, 2);
  assert.is(many.stderr, 'svc: --author: at most 100 values, not 101.\n');
});

test('explore: a flag --export or --facets has no use for is refused by name (a --sort on an export changed nothing)', async () => {
  for (const [args, said] of [
    [['soil', '--export', 'ris', '--sort', 'relevance'], '--export takes every matching paper in corpus order; it does not take --sort.'],
    [['--export', 'bibtex', '--limit', '5', '--mode', 'semantic'], '--export takes every matching paper in corpus order; it does not take --mode, --limit.'],
    [['--export', 'bibtex', '--facets'], '--export takes every matching paper in corpus order; it does not take --facets.'],
    [['soil', '--facets', '--sort', 'relevance', '--exhaustive'], '--facets counts every matching paper; it does not take --sort, --exhaustive.'],
    [['--facets', '--next', 'abc'], '--facets counts every matching paper; it does not take --next.'],
  ] as const) {
    const r = await svc('explore', ...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.is(r.stderr, `svc: ${said}\n`);
  }
  assert.is((await json('explore', 'soil', '--facets', '--limit', '1')).facets.authors.values.length, 1, '--limit stays the values per facet');
});

test('explore: a page with more prints the whole next command, query and filters kept, that pastes as printed (it said "add --next X")', async () => {
  const first = await svc('explore', 'soil', '--category', 'Ecology', '--source', 'crossref', '--sort', 'relevance', '--exhaustive', '--limit', '2');
  assert.is(first.code, 0, first.stderr);
  const m = /^more: svc explore soil --category Ecology --source crossref --sort relevance --limit 2 --next (\S+) --exhaustive\n$/.exec(first.stderr);
  assert.ok(m, first.stderr);
  const next = await svc(...first.stderr.trim().split(' ').slice(2));
  assert.is(next.code, 0, next.stderr);
  const ids = (out: string) => out.split('\n').slice(1).filter(Boolean).map((line) => line.split(/\s+/)[0]);
  assert.is(ids(next.stdout).length, 2);
  assert.not.ok(ids(next.stdout).some((id) => ids(first.stdout).includes(id)), 'the next page, not the first again');
  const dashed = await svc('explore', '--limit', '1', '--', '-coral soil');
  assert.match(dashed.stderr, /^more: svc explore --limit 1 --next \S+ -- '-coral soil'\n$/);
  assert.match((await svc('explore', '--author', 'Author 1', '--author', 'Author 2', '--limit', '1')).stderr, /^more: svc explore --author 'Author 1' --author 'Author 2' --limit 1 --next \S+\n$/);
});

test('explore and queue list on the first day: an empty corpus or queue says what collects or saves one, not "No paper matches"', async () => {
  const fresh = tempDirs();
  try {
    const empty = (...args: string[]) => runCliInProcess(args, { env: fresh.env });
    assert.is((await empty('explore')).stdout, 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.\n');
    assert.is((await empty('explore', '--facets')).stdout, 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.\n');
    assert.is((await empty('explore', 'soil')).stdout, 'No paper matches.\n', 'a query that matches nothing says so');
    assert.is((await empty('queue', 'list')).stdout, 'The reading queue is empty; `svc queue add DOC_ID` saves a paper (the ID column of `svc explore`).\n');
  } finally {
    fresh.cleanup();
  }
});

test('queue list: past the last entry, or a status none has, is not "The reading queue is empty"', async () => {
  await json('queue', 'add', String(ids[2]));
  try {
    assert.is((await svc('queue', 'list', '--offset', '5')).stdout, 'No entry from offset 5; 1 saved.\n');
    assert.is((await svc('queue', 'list', '--status', 'read')).stdout, 'No saved paper is read.\n');
  } finally {
    await json('queue', 'remove', String(ids[2]), '--yes');
  }
});

test.run();
