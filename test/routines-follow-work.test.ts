/**
 * The work of one fire of a routine following a person in mode retractions:
 * its papers are matched to the profiles once (the follow check matches them
 * before checking; the after-run step does not match them again), and a source
 * the fire's search just answered about a paper is not asked about it again by
 * the check beside the fire. What the fire reports stays the same. Loopback
 * Crossref serves the person's works, the search answer carrying the
 * retraction notice a per-DOI lookup would carry.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { executionManager } from '../src/executions/manager.js';
import { runRoutine } from './_delivery.js';
import { serverWithSources } from './_executions.js';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';

const RETRACTED = '10.5555/follow.work.retracted';
const PLAIN = '10.5555/follow.work.plain';
const NOTICE = 'https://doi.org/10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda';

/** The recorded PLOS work (authors include Brooks B. Pond) under another DOI; `retracted`: its updated-by entry made a retraction, else dropped. */
function work(doi: string, retracted: boolean): any {
  const w = JSON.parse(fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json').toString('utf8')).message;
  w.DOI = doi;
  w.URL = `https://doi.org/${doi}`;
  w.title = [`Paper ${doi}`];
  w.relation = {};
  if (retracted) w['updated-by'] = w['updated-by'].map((u: any) => ({ ...u, type: 'retraction', label: 'Retraction' }));
  else delete w['updated-by'];
  return w;
}

let t: TestServer;
let crossref: Stub;

test.before(async () => {
  const works = [work(RETRACTED, true), work(PLAIN, false)];
  crossref = await startStub([
    { path: '/works', body: JSON.stringify({ status: 'ok', 'message-type': 'work-list', message: { 'total-results': 2, items: works, 'items-per-page': 2 } }), times: Infinity },
    ...works.map((w) => ({ path: `/works/${w.DOI}`, body: JSON.stringify({ status: 'ok', 'message-type': 'work', message: w }), times: Infinity })),
  ]);
  t = await serverWithSources({ crossref: crossref.url });
  // Every write of a match (a paper matched, or matched again) counted, on the server's own connection.
  t.ctx.db.exec(`CREATE TEMP TABLE match_writes (n INTEGER NOT NULL);
    CREATE TEMP TRIGGER match_inserted AFTER INSERT ON profile_matches BEGIN INSERT INTO match_writes VALUES (1); END;
    CREATE TEMP TRIGGER match_updated AFTER UPDATE ON profile_matches BEGIN INSERT INTO match_writes VALUES (1); END;`);
});
test.after(async () => {
  t.ctx.db.exec('DROP TRIGGER temp.match_inserted; DROP TRIGGER temp.match_updated; DROP TABLE temp.match_writes');
  await t.close();
  await crossref.close();
});

const matchWrites = () => t.ctx.db.prepare('SELECT count(*) FROM temp.match_writes').pluck().get() as number;
const lookups = () => crossref.requests.filter((r) => r.path.startsWith('/works/')).length;

/** Fire the routine and let its after-run steps end; answers the work it did and what it reported. */
async function fire(routineId: number) {
  const [writes, asked] = [matchWrites(), lookups()];
  const id = await runRoutine(t, routineId);
  await executionManager(t.ctx).wait(id);
  const detail = (await t.request('GET', `/api/executions/${id}`)).json();
  return { detail, matchWrites: matchWrites() - writes, lookups: lookups() - asked };
}

test('a retractions fire matches its papers once and does not ask Crossref again about the works its search just brought', async () => {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: 'Brooks B. Pond' } })).json();
  const r = await t.request('POST', '/api/routines', {
    body: { name: 'pond retractions', schedule_cron: '@daily', is_active: false, parameters: { repositories: ['crossref'], query: '', max_results: 2 }, entity: { profile_id: profile.id, mode: 'retractions' } },
  });
  assert.is(r.status, 201, r.text);
  const routineId = r.json().id as number;

  const first = await fire(routineId);
  assert.is(first.detail.status, 'completed');
  assert.equal([first.detail.follow.papers, first.detail.follow.checked, first.detail.follow.failed], [2, 2, 0], 'both papers checked');
  assert.equal(first.detail.follow.events.map((e: any) => [e.kind, e.notice_url, e.doi, e.source]), [['retraction', NOTICE, RETRACTED, 'crossref']], 'the retraction reported, from crossref');
  assert.is(first.lookups, 0, 'the search answered for both works: no per-DOI lookup');
  assert.is(first.matchWrites, 2, 'each new paper matched once');

  // The next fire sees the same papers again (known now): each is matched again once, not twice.
  const second = await fire(routineId);
  assert.equal([second.detail.follow.checked, second.detail.follow.events], [2, []], 'checked again, nothing reported twice');
  assert.is(second.lookups, 0);
  assert.is(second.matchWrites, 2, 'the known papers matched again once (the follow check), not again after the run');
  const paper = (await t.request('GET', `/api/documents/${first.detail.follow.events[0].document_id}/lifecycle`)).json();
  assert.is(paper.last_attempt.outcome, 'checked');
});

test.run();
