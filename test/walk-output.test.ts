/**
 * Rough edges found walking through svc as a daily user: each test pins one
 * fix (report citations, what to do after a "not found", a semantic explore
 * that says what its nearness is).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import type { DocumentView } from '../src/corpus/read.js';
import { citationLine } from '../src/executions/report.js';
import { silentLogger } from '../src/log.js';
import fs from 'node:fs';
import path from 'node:path';
import { withNextStep } from '../commands/lib/hints.js';
import { clip, count } from '../commands/lib/words.js';
import { resolvePaths } from '../src/paths.js';
import { fixture, ROOT, tempDirs, type TempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub } from './_stub.js';
import { makeRecord, seed } from './_corpus.js';

let dirs: TempDirs;
const svc = (...args: string[]) => runCliInProcess(args, { env: dirs.env });

test.before(async () => {
  dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  seed(ctx, Array.from({ length: 6 }, (_, i) => makeRecord(i + 1, { title: i % 2 ? `Soil carbon ${i}` : `Coral reef ${i}` })));
  await ctx.close();
});
test.after(() => dirs.cleanup());

const doc = (over: Partial<DocumentView>): DocumentView => ({
  id: 1, title: 'A title', authors: [], abstract: null, publication_date: null, date_precision: null, year: 2025, venue: 'Lancet', doi: '10.1/x',
  arxiv_id: null, pmid: null, pmcid: null, ids: {}, url: null, pdf_url: null, categories: [], license: null, open_access: null, type: null,
  is_retracted: false, relations: [], first_seen_at_utc: '2025-01-01T00:00:00.000Z', ...over,
});

test('report citation: "et al." and a venue ending in a period are not followed by a second period', () => {
  const many = citationLine(doc({ authors: ['Al-Abbadey', 'Tomescu', 'Kaklamanou', 'Jarrett'].map((family) => ({ name: family, family })) as DocumentView['authors'] }));
  assert.ok(many.includes('Kaklamanou et al. Lancet, 2025.'), many);
  assert.not.ok(many.includes('..'), many);
  const initials = citationLine(doc({ authors: [{ name: 'Smith J.' }] as DocumentView['authors'] }));
  assert.not.ok(initials.includes('..'), initials);
});

test('not found: the CLI says which command lists the items, once', () => {
  assert.is(withNextStep('document_not_found', 'No document 9.'), 'No document 9; `svc explore` lists the papers in the corpus.');
  const already = 'No routine 9; GET /api/routines (or `svc routine list`) lists them.';
  assert.is(withNextStep('routine_not_found', already), already);
  assert.is(withNextStep('usage', 'Bad flag.'), 'Bad flag.');
});

test('refusals at the command line name the svc command, never the HTTP route beside it (routine, profile, destination, source)', async () => {
  const cases: [string[], number, string][] = [
    [['routine', 'show', '987654'], 3, 'svc: No routine 987654; `svc routine list` lists them.'],
    [['routine', 'run', '987654'], 3, 'svc: No routine 987654; `svc routine list` lists them.'],
    [['routine', 'target', 'list', '987654'], 3, 'svc: No routine 987654; `svc routine list` lists them.'],
    [['profile', 'show', '987654'], 3, 'svc: No watch profile 987654; `svc profile list` lists them.'],
  ];
  for (const [args, code, line] of cases) {
    const r = await svc(...args);
    assert.equal([r.code, r.stderr.trim()], [code, line], args.join(' '));
    assert.not.match(JSON.parse((await svc('--json', ...args)).stdout).message, /\/api\//, args.join(' '));
  }
  const source = await svc('dive', 'nosuch', 'soil');
  assert.is(source.code, 2, source.stderr);
  assert.match(source.stderr, /Unknown repository "nosuch"; `svc sources` lists them/);
  assert.not.match(source.stderr, /\/api\//);
});

test('not found: queue add, similar and why of a missing paper say what to do (human and --json)', async () => {
  for (const args of [['queue', 'add', '999'], ['similar', '999'], ['why', '999']]) {
    const r = await svc(...args);
    assert.is(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /No document 999; `svc explore` lists/);
    const j = await svc('--json', ...args);
    assert.match(JSON.parse(j.stdout).message, /`svc explore` lists/);
  }
});

test('explore --mode semantic: the human view says the model, whether nearness is lexical, and each distance; --json has kind', async () => {
  // embed status says what to run next: backfill for missing vectors, rebuild for a missing index.
  assert.match((await svc('embed', 'status')).stdout, /6 missing: `svc embed backfill` embeds them/);
  assert.is((await svc('embed', 'backfill')).code, 0);
  const status = (await svc('embed', 'status')).stdout;
  if (/usearch\s+loaded/.test(status)) assert.match(status, /index\s+missing .*; `svc embed rebuild` builds it/);
  const human = await svc('explore', '--mode', 'semantic', 'soil carbon');
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, /^Nearest first by local\/lexical-hash-v1 \(lexical: shared words, not meaning\):/);
  assert.match(human.stdout, /ID\s+DISTANCE\s+DATE\s+SOURCES\s+TITLE/);
  assert.match(human.stdout, /\n\d+\s+\d\.\d{4}\s+2020-/);
  const j = JSON.parse((await svc('--json', 'explore', '--mode', 'semantic', 'soil carbon')).stdout);
  assert.is(j.mode, 'semantic');
  assert.is(j.kind, 'lexical');
  const keyword = await svc('explore', 'soil');
  assert.not.match(keyword.stdout, /DISTANCE|Nearest/);
});

test('sources: the KEY column names the credential to store, and the footer says how', async () => {
  const r = await svc('sources');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /openalex\s+OpenAlex\s+active\s+openalex_api_key \(required, absent\)/);
  assert.match(r.stdout, /pubmed\s+PubMed\s+active\s+ncbi_api_key \(optional, absent\)/);
  assert.match(r.stdout, /Store a key with `svc credentials set NAME`/);
});

test('counts agree with their noun and cut titles end in an ellipsis', async () => {
  assert.is(count(1, 'routine'), '1 routine');
  assert.is(count(0, 'alarm'), '0 alarms');
  assert.is(count(2, 'match', 'matches'), '2 matches');
  assert.is(clip('A Survey on Web Testing: On the Rise', 25), 'A Survey on Web Testing:…');
  assert.is(clip('short', 25), 'short');
  // With --facets, --limit is the values per facet (1 to 200), not ignored.
  const three = JSON.parse((await svc('--json', 'explore', '--facets', '--limit', '1')).stdout);
  assert.is(three.facets.authors.values.length, 1);
  assert.ok(three.facets.authors.distinct_values > 1);
  const tooMany = await svc('explore', '--facets', '--limit', '201');
  assert.is(tooMany.code, 2);
  assert.match(tooMany.stderr, /--limit must be a whole number from 1 to 200/);
  const facets = await svc('explore', '--facets', '--source', 'crossref');
  assert.is(facets.code, 0, facets.stderr);
  assert.match(facets.stdout, /SOURCES \(1 value\)/);
  assert.not.match(facets.stdout, /\(1 values\)/);
  const watchdog = await svc('watchdog');
  assert.match(watchdog.stdout, /^0 alarms: /);
  const analytics = await svc('analytics');
  assert.match(analytics.stdout, /6 papers stored, .*; 0 completed runs; 0 active routines; 0 lifecycle events\./);
});

test('svc(1) names the port file the server really writes (one per data directory)', () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc.1'), 'utf8');
  const real = path.basename(resolvePaths({ dataDir: '/tmp/x', stateDir: '/tmp/y', osDirs: {} } as never).portFile);
  assert.match(real, /^port-[0-9a-f]{12}$/);
  assert.ok(page.includes('\\fIport\\-<hash>\\fR'), 'svc serve names port-<hash>');
  assert.ok(page.includes('.I $SVC_STATE_DIR/port\\-<hash>'), 'FILES names port-<hash>');
  assert.not.ok(page.includes('.I $SVC_STATE_DIR/port\n'), 'no bare port file');
});

test('evidence and answer: a project or file that can be no kind of id says which ids to copy', async () => {
  // A project is named any way `svc evidence list` prints it (ID, PROJECT_ID or NAME); a word that can be none of them says so.
  const project = await svc('evidence', 'show', 'two\nlines');
  assert.is(project.code, 2);
  assert.match(project.stderr, /A project is named by the ID, PROJECT_ID or NAME `svc evidence list` prints/);
  // A file may be given by either id `svc library list` prints (the ID number or the FILE_ID); anything else says so.
  const file = await svc('evidence', 'add', '935a0896-d2d7-4453-9be4-2f72ee1a6f4b', 'paper.pdf');
  assert.is(file.code, 2);
  assert.match(file.stderr, /file must be the ID \(a number\) or FILE_ID \(a canonical lowercase UUID\) that `svc library list` prints/);
  const answer = await svc('answer', 'list', 'two\nlines');
  assert.is(answer.code, 2);
  assert.match(answer.stderr, /A project is named by the ID, PROJECT_ID or NAME `svc evidence list` prints/);
});

test('an unknown repository names `svc sources` on the command line (dive, sweep, routine add)', async () => {
  for (const args of [['dive', 'nosuch', 'x'], ['sweep', 'x', '--sources', 'arxiv,nosuch'], ['routine', 'add', '--name', 'z', '--schedule', '0 6 * * *', '--query', 'x', '--sources', 'nosuch']]) {
    const r = await svc(...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /Unknown repository "nosuch"; .*`svc sources`/);
  }
});

test('svc health with no server exits 1, as svc(1) says (5 is reserved)', async () => {
  const r = await svc('health');
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /start one with `svc serve`/);
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc.1'), 'utf8');
  assert.not.match(page, /Exits 5/);
  assert.match(page, /Exits 1 when no\nserver is running/);
  // A run where one source answered completes with exit 0 (svc-search(1)); svc(1) must not call it a failure.
  assert.not.match(page, /partly failed run/);
});

test('executions list says its times are UTC, like routine list; why groups a reason repeated by several runs and says a run\'s rank as a position counted from 1', async () => {
  const crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  try {
    const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
    assert.is((await runCliInProcess(['dive', 'crossref', 'ecology', '--max', '2'], { env })).code, 0);
    const list = await runCliInProcess(['executions', 'list'], { env });
    assert.match(list.stdout, /ID\s+TYPE\s+STATUS\s+RESULTS\s+STARTED \(UTC\)\s+QUERY/);
    // why: the same unverifiable reason of several runs is said once, naming the runs.
    for (let i = 0; i < 2; i++) assert.is((await runCliInProcess(['dive', 'crossref', 'zebrafish', '--max', '2'], { env })).code, 0);
    const doc = JSON.parse((await runCliInProcess(['--json', 'explore', '--source', 'crossref', '--limit', '1'], { env })).stdout).papers[0].id;
    const why = await runCliInProcess(['why', String(doc)], { env });
    assert.is(why.code, 0, why.stderr);
    assert.match(why.stdout, /  - Executions \d+, \d+: crossref returned this paper although none of the run's words appear/);
    assert.is(why.stdout.split("none of the run's words").length, 2, why.stdout);
    const whyJson = JSON.parse((await runCliInProcess(['--json', 'why', String(doc)], { env })).stdout);
    assert.ok(whyJson.cannot_verify.filter((r: string) => /^Execution \d+: /.test(r)).length >= 2, 'the JSON keeps one reason per run');
    // The JSON rank counts from 0 (as the route answers); the text says the same place counted from 1, and of what.
    const first = whyJson.executions[0];
    assert.match(why.stdout, new RegExp(`execution ${first.execution_id} .* position ${first.rank + 1} in crossref's answer  "`));
    assert.not.match(why.stdout, / rank \d/);
    assert.match(whyJson.method, /counted from 0/);
  } finally {
    await crossref.close();
  }
});

test('svc(1) SEE ALSO and the README name every command page', () => {
  const dir = path.join(ROOT, 'man');
  const page = fs.readFileSync(path.join(dir, 'svc.1'), 'utf8');
  const seeAlso = page.slice(page.indexOf('.SH SEE ALSO'));
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const pages = fs.readdirSync(dir).filter((f) => /^svc-.+\.1$/.test(f) && !fs.readFileSync(path.join(dir, f), 'utf8').startsWith('.so '));
  assert.ok(pages.length > 10);
  for (const f of pages) {
    const name = f.replace(/\.1$/, '');
    assert.ok(seeAlso.includes(`.BR ${name.replace(/-/g, '\\-')} (1)`), `svc(1) SEE ALSO names ${name}`);
    assert.ok(readme.includes(`man ${name}`), `README names man ${name}`);
  }
});

test.run();
