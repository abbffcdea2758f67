/**
 * `why` answers its cannot-verify reasons as structured items too (the run each is about, and its
 * words after the run), and `svc why` groups the reasons several runs share from those items
 * rather than by reading the sentences back with a pattern.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';
import { runCliCaptured } from './_cli.js';
import { groupByExecution } from '../commands/corpus/why.js';

let crossref: Stub;
let t: TestServer;
const runs: number[] = [];

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url });
  // The stub answers every query the same, as a relevance-ranked source may: "zebrafish" is in neither record.
  for (const query of ['zebrafish', 'zebrafish']) {
    const id = await dive(t, { repository: 'crossref', query, max_results: 2 });
    await finished(t, id);
    runs.push(id);
  }
});
test.after(async () => {
  await t.close();
  await crossref.close();
});

const docByDoi = (doi: string) => t.ctx.db.prepare('SELECT id FROM documents WHERE doi = ?').pluck().get(doi) as number;

test('why: each cannot-verify sentence has its item, naming the run it is about apart from its words', async () => {
  const why = (await t.request('GET', `/api/documents/${docByDoi('10.1093/obo/9780199830060-0023')}/why`)).json();
  assert.ok(Array.isArray(why.cannot_verify_items), JSON.stringify(Object.keys(why)));
  assert.is(why.cannot_verify_items.length, why.cannot_verify.length);
  why.cannot_verify_items.forEach((item: { execution_id: number | null; text: string }, i: number) => {
    assert.is(why.cannot_verify[i], item.execution_id === null ? item.text : `Execution ${item.execution_id}: ${item.text}`);
  });
  const ofRuns = why.cannot_verify_items.filter((item: { execution_id: number | null }) => item.execution_id !== null);
  assert.equal(ofRuns.map((item: { execution_id: number }) => item.execution_id), runs);
  assert.is(ofRuns[0].text, ofRuns[1].text);
  assert.match(ofRuns[0].text, /^crossref returned this paper although none of the run's words appear/);
  // Abstracts, kept records: reasons about no run are whole sentences.
  for (const item of why.cannot_verify_items.filter((x: { execution_id: number | null }) => x.execution_id === null)) assert.not.match(item.text, /^Execution \d+: /);
});

test('svc why says a reason two runs share once, naming both runs, from the items', async () => {
  const doc = docByDoi('10.1093/obo/9780199830060-0023');
  const why = JSON.parse((await runCliCaptured(['--json', 'why', String(doc)], t.dirs.env)).stdout);
  const shared = why.cannot_verify_items.find((item: { execution_id: number | null }) => item.execution_id === runs[0]).text;
  const human = await runCliCaptured(['why', String(doc)], t.dirs.env);
  assert.is(human.code, 0, human.stderr);
  assert.ok(human.stdout.split('\n').includes(`  - Executions ${runs[0]}, ${runs[1]}: ${shared}`), human.stdout);
});

test('the grouping reads the items only: a whole sentence that begins like a run\'s stays as it is', () => {
  assert.equal(
    groupByExecution([
      { execution_id: 3, text: 'X.' },
      { execution_id: null, text: 'Execution 12: words that only look like a run\'s.' },
      { execution_id: 4, text: 'X.' },
      { execution_id: 5, text: 'Y.' },
    ]),
    ['Executions 3, 4: X.', 'Execution 12: words that only look like a run\'s.', 'Execution 5: Y.'],
  );
});

test.run();
