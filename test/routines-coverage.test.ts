import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { insertExecution, linkDocuments } from '../src/executions/repo.js';
import type { RunSpec } from '../src/executions/request.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { intentTerms, MAX_INTENT_TERMS, termsNeeded } from '../src/routines/coverage-terms.js';
import { startTestServer, type TestServer } from './_setup.js';
import { routineBody } from './_scheduler.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(async () => {
  await t.close();
});

function record(n: number, title: string, abstract: string | undefined, date: string | undefined): NormalizedRecord {
  return { source: 'crossref', nativeId: `10.1000/cov${n}`, doi: `10.1000/cov${n}`, title, abstract, publicationDate: date, authors: [], ids: {}, categories: [], relations: [] };
}

/** Store papers; answers their document ids in order. */
function store(records: NormalizedRecord[]): number[] {
  return mergeRecords(t.ctx.db, records.map((record, rank) => ({ record, rank })), t.ctx.nowIso()).map((m) => m.documentId);
}

/** A completed run of the routine that found `ids`, asking the window given. */
function runOf(routineId: number, ids: number[], dateFrom: string | null, dateTo: string | null): void {
  const spec: RunSpec = {
    type: 'routine', repositories: ['crossref'], query: 'q', keywords: [], dateFrom, dateTo, maxResults: 10, aiEnabled: false, aiSettings: null,
    requestId: null, savedConfigurationId: null, routineId, author: null,
  };
  const id = insertExecution(t.ctx.db, spec, { pid: process.pid, runtimeId: t.ctx.runtimeId, role: 'server' }, t.ctx.nowIso(), null, {});
  linkDocuments(t.ctx.db, id, 'crossref', ids.map((documentId, rank) => ({ documentId, rank, isNew: true })));
  t.ctx.db.prepare(`UPDATE executions SET status = 'completed' WHERE id = ?`).run(id);
}

test('intent terms: stop words dropped, light stems, half of three or more needed', () => {
  assert.equal(intentTerms('Papers about the ecology of coral reefs and their bleaching'), ['ecolog', 'coral', 'reef', 'bleach']);
  assert.equal(intentTerms('deep learning for protein structure prediction'), ['deep', 'learn', 'protein', 'structure', 'predict']);
  assert.equal([termsNeeded(1), termsNeeded(2), termsNeeded(3), termsNeeded(4), termsNeeded(5)], [1, 2, 2, 2, 3]);
  const long = Array.from({ length: MAX_INTENT_TERMS + 5 }, (_, i) => `topic${String.fromCharCode(97 + i)}x`).join(' ');
  assert.is(intentTerms(long).length, MAX_INTENT_TERMS);
});

test('with no intent the audit says it cannot judge, and never falls back to keywords', async () => {
  const { id } = (await t.request('POST', '/api/routines', { body: routineBody({ intent: null, parameters: { repositories: ['crossref'], query: 'coral', keywords: ['coral', 'reef'] } }) })).json();
  const audit = (await t.request('GET', `/api/routines/${id}/coverage`)).json();
  assert.equal([audit.judged, audit.reason, audit.off_target, audit.missed_in_corpus], [false, 'no_intent', null, null]);
  assert.match(audit.message, /never guessed from keywords/);
  assert.match(audit.method, /Lexical/);
});

test('off target and missed in corpus: true totals, paged examples, window, lower bound, the method explained', async () => {
  const { id } = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'reefs', intent: 'the ecology of coral reefs and their bleaching' }) })).json();
  const [fit1, fit2, off1, off2, off3] = store([
    record(1, 'Coral reef bleaching under marine heatwaves', 'Ecological consequences for reefs.', '2025-06-01'),
    record(2, 'Reef ecology of deep corals', undefined, '2025-06-02'),
    record(3, 'A survey of graph neural networks', 'Graphs everywhere.', '2025-06-03'),
    record(4, 'Coral-coloured paint in architecture', 'Pigments.', '2025-06-04'),
    record(5, 'Bleaching of paper pulp', 'Industrial chemistry.', '2025-06-05'),
  ]);
  const [missedIn, missedOld, missedUndated, unrelated] = store([
    record(6, 'Coral bleaching and reef ecology in the Red Sea', 'Reefs under stress.', '2025-06-10'),
    record(7, 'Historic coral reef ecology', 'Reefs long ago.', '1999'),
    record(8, 'Reef bleaching of corals, undated preprint', 'Coral ecology.', undefined),
    record(9, 'Bird song learning', 'Communication in birds.', '2025-06-11'),
  ]);
  runOf(id, [fit1!, off1!, off2!], '2025-05-01', '2025-06-15');
  runOf(id, [fit2!, off3!, fit1!], '2025-06-01', '2025-06-30');

  const audit = (await t.request('GET', `/api/routines/${id}/coverage?limit=2`)).json();
  assert.is(audit.judged, true);
  assert.equal(audit.terms, ['ecolog', 'coral', 'reef', 'bleach']);
  assert.is(audit.terms_needed, 2);
  assert.equal(audit.window, { date_from: '2025-05-01', date_to: '2025-06-30' });
  assert.equal([audit.results_total, audit.on_target_total], [5, 2]);
  assert.equal([audit.off_target.total, audit.off_target.examples.length, audit.off_target.next_offset], [3, 2, 2], 'the total is the true total, not the page length');
  assert.equal(audit.off_target.examples.map((e: any) => e.id), [off3, off2], 'newest first');
  assert.equal(audit.off_target.examples[0].matched_terms, ['bleach']);
  const page2 = (await t.request('GET', `/api/routines/${id}/coverage?limit=2&offset=2`)).json();
  assert.equal([page2.off_target.examples.map((e: any) => e.id), page2.off_target.next_offset], [[off1], null]);
  assert.equal([audit.missed_in_corpus.total, audit.missed_in_corpus.lower_bound, audit.missed_in_corpus.undated_excluded], [1, true, 1]);
  assert.equal(audit.missed_in_corpus.examples.map((e: any) => e.id), [missedIn]);
  assert.equal(audit.missed_in_corpus.examples[0].found_by, ['crossref']);
  assert.ok(![missedOld, unrelated].includes(audit.missed_in_corpus.examples[0].id));
  assert.is(audit.results_without_abstract, 1);
  assert.ok(audit.caveats.some((c: string) => /title alone/.test(c)));
  assert.match(audit.missed_in_corpus.lower_bound_reason, /only papers some search/);
  assert.match(audit.method, /exact counts/);
  assert.equal(missedUndated > 0, true);
});

test('coverage paging limits are checked; an unknown routine is 404', async () => {
  const { id } = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'limits' }) })).json();
  assert.is((await t.request('GET', `/api/routines/${id}/coverage?limit=100`)).status, 200);
  assert.is((await t.request('GET', `/api/routines/${id}/coverage?limit=101`)).status, 422);
  assert.is((await t.request('GET', `/api/routines/${id}/coverage?limit=0`)).status, 422);
  assert.is((await t.request('GET', '/api/routines/424242/coverage')).status, 404);
});

test.run();
