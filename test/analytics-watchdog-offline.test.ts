/**
 * The watchdog does not call a source broken for runs that failed because
 * this machine was offline (the run said so: no source reached, each for want
 * of DNS or a route); it says those runs were not counted. A source that
 * fails alone, while others answer, is still judged.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ZERO_REASON_MEANING } from '../src/executions/zero-reasons.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { addRun, daysAgo, record, store } from './_history.js';

let t: TestServer;

test.before(async () => {
  t = await startTestServer();
  const [doc] = store(t.ctx, [record({ source: 'arxiv', nativeId: '2401.1', ids: { arxiv: '2401.1' }, title: 'A paper' })]);
  addRun(t.ctx, { startedAt: daysAgo(10), sources: { arxiv: { docs: [doc!] }, pubmed: { docs: [doc!] }, dblp: { docs: [doc!] } } });
  // Three runs on a machine with no network: every source failed at DNS or had no route.
  for (const n of [3, 2, 1]) addRun(t.ctx, { status: 'failed', startedAt: daysAgo(n), sources: { arxiv: { zeroReason: 'upstream_failure', network: 'dns' }, pubmed: { zeroReason: 'upstream_failure', network: 'unreachable' } } });
  // dblp's host alone failing at DNS while another source answered: that is dblp's trouble.
  for (const n of [3.5, 2.5, 1.5]) addRun(t.ctx, { startedAt: daysAgo(n), sources: { dblp: { zeroReason: 'upstream_failure', network: 'dns' }, crossref: { docs: [doc!] } } });
});
test.after(() => t.close());

test('runs that failed because the machine was offline are not held against a source: no BROKEN, and the answer says they were not counted', async () => {
  const w = (await t.request('GET', '/api/watchdog')).json();
  const keys = w.findings.map((f: { key: string }) => f.key);
  assert.not.ok(keys.includes('source_failing:arxiv'), keys.join(', '));
  assert.not.ok(keys.includes('source_failing:pubmed'), keys.join(', '));
  assert.ok(keys.includes('source_failing:dblp'), `a source failing on its own is still broken: ${keys.join(', ')}`);
  const offline = w.could_not_judge.filter((u: { reason: string }) => /machine was offline/.test(u.reason));
  assert.equal(offline.map((u: { subject: { id: string } }) => u.subject.id).sort(), ['arxiv', 'pubmed']);
  assert.not.ok(w.could_not_judge.some((u: { reason: string }) => /only 0 settled runs/.test(u.reason)), 'no "only 0 runs" beside it');
  assert.match(offline[0].reason, /^3 runs failed because this machine was offline \(no source could be reached\); not counted against /);
  const cli = await runCliInProcess(['watchdog'], { env: t.dirs.env });
  assert.is(cli.code, 0, cli.stderr);
  assert.not.match(cli.stdout, /BROKEN\s+arXiv/);
  assert.match(cli.stdout, /3 runs failed because this machine was offline/);
});

test('the meaning of upstream_failure does not claim retries that a DNS failure never gets', () => {
  assert.not.match(ZERO_REASON_MEANING.upstream_failure, /after retries/);
  assert.match(ZERO_REASON_MEANING.upstream_failure, /no network/);
});

test.run();
