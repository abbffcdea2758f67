import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { ROOT, tempDirs, type TempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { seedDocuments, TOPICS } from './_similarity.js';

let dirs: TempDirs;
let ids: number[];
test.before(async () => {
  dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  ids = seedDocuments(ctx.db, [
    ...TOPICS,
    { title: 'Characterization of nuclear transport rates in yeast cells', authors: [{ name: 'Durrieu, L.', family: 'Durrieu' }], year: 2021, doi: '10.1101/001768', doc_type: 'preprint', venue: 'bioRxiv' },
    { title: 'Characterization of nuclear transport rates in yeast cells.', authors: [{ name: 'Durrieu, L.', family: 'Durrieu' }], year: 2022, doi: '10.1016/j.isci.2022.105906', doc_type: 'article' },
  ]);
  await ctx.close();
});
test.after(() => dirs.cleanup());

const cli = (args: string[]) => runCliInProcess(args, { env: dirs.env });

test('svc embed status / estimate / backfill / rebuild with --json: one JSON document each', async () => {
  let r = await cli(['embed', 'status', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal([JSON.parse(r.stdout).embedded, JSON.parse(r.stdout).total, JSON.parse(r.stdout).kind], [0, ids.length, 'lexical']);
  r = await cli(['embed', 'estimate', '--json']);
  assert.is(JSON.parse(r.stdout).documents, ids.length);
  r = await cli(['embed', 'backfill', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal([JSON.parse(r.stdout).state, JSON.parse(r.stdout).embedded], ['completed', ids.length]);
  r = await cli(['embed', 'rebuild', '--json']);
  assert.is(JSON.parse(r.stdout).vectors, ids.length);
  r = await cli(['embed', 'probe', '--json']);
  assert.is(JSON.parse(r.stdout).ok, true);
  r = await cli(['embed', 'probe', '--provider', 'anthropic', '--json']);
  assert.is(r.code, 2, 'a provider that cannot embed is a usage error');
  assert.is(JSON.parse(r.stdout).error, 'validation_failed');
});

test('svc similar: neighbours, human and --json; bad id and limit exit 2; unknown paper exits 3', async () => {
  let r = await cli(['similar', String(ids[0]), '--limit', '2', '--json']);
  assert.is(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  assert.is(answer.results.length, 2);
  assert.ok([ids[1], ids[2]].includes(answer.results[0].document_id));
  r = await cli(['similar', String(ids[0])]);
  assert.match(r.stdout, /lexical: shared words, not meaning/);
  assert.is((await cli(['similar', 'abc'])).code, 2);
  assert.is((await cli(['similar', '1', '--limit', '500'])).code, 2);
  assert.is((await cli(['similar', '99999'])).code, 3);
});

test('svc links scan / status / show / preview', async () => {
  let r = await cli(['links', 'scan', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal([JSON.parse(r.stdout).state, JSON.parse(r.stdout).links_written], ['completed', 1]);
  r = await cli(['links', 'status', '--json']);
  assert.is(JSON.parse(r.stdout).by_method.preprint_published, 1);
  const [pre, pub] = ids.slice(-2);
  r = await cli(['links', 'show', String(pre), '--json']);
  assert.is(JSON.parse(r.stdout).links[0].document_id, pub);
  r = await cli(['links', 'show', String(ids[0])]);
  assert.match(r.stdout, /No links/);
  r = await cli(['links', 'preview', `${pre},${pub},${ids[0]}`, '--json']);
  assert.equal(JSON.parse(r.stdout).groups, [{ keep: pub, fold: [pre], methods: ['preprint_published'] }]);
  assert.is((await cli(['links', 'preview', 'x,y'])).code, 2);
});

test('svc links preview names the ids that are not in the corpus instead of answering them as having no links', async () => {
  const [pre, pub] = ids.slice(-2);
  let r = await cli(['links', 'preview', `${pre},${pub},999991,999992`]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`keep ${pub}, fold ${pre}`));
  assert.match(r.stdout, /Not in the corpus: 999991, 999992\./);
  r = await cli(['links', 'preview', `${ids[0]},999991`]);
  assert.match(r.stdout, /Nothing would fold: no same-work links among these ids\.\nNot in the corpus: 999991\./);
});

test('svc links preview takes ids separated by spaces as well as commas (it said "too many arguments")', async () => {
  const [pre, pub] = ids.slice(-2);
  const r = await cli(['links', 'preview', String(pre), `${pub},999991`, '--json']);
  assert.is(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  assert.equal([answer.groups, answer.unknown_ids], [[{ keep: pub, fold: [pre], methods: ['preprint_published'] }], [999991]]);
  assert.is((await cli(['links', 'preview', String(pre), 'x'])).code, 2);
});

test('svc embed backfill with every paper embedded says there was nothing to embed (it said "0 of 0 documents embedded")', async () => {
  await cli(['embed', 'backfill']);
  const r = await cli(['embed', 'backfill']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Run #\d+ completed: nothing to embed; every document already has a vector for \S+\.\n$/);
});

test('svc-similarity(1): exit 130 also for a backfill or scan stopped by a cancel from another process (its run reads cancelled)', () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc-similarity.1'), 'utf8');
  const exit = page.slice(page.indexOf('.SH EXIT STATUS')).replace(/\\f[BRI]|\\/g, '');
  assert.match(exit.replace(/\s+/g, ' '), /130 a backfill or scan stopped by Ctrl-C or by a cancel from another process \(svc embed cancel, svc links cancel/);
});

test.run();
