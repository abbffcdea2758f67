/**
 * A run stores pages of collaboration papers one by one: merging is work per
 * author, so records that name many authors are not buffered up to the usual
 * 250 a transaction (two pages of 100 papers of 120 authors would be merged in
 * one long transaction, holding the event loop for the two). Seen from the run's
 * own events: when page 1 is reported, its papers are already in the run.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';

const RECORDS = 100;
const AUTHORS = 120;

/** An arXiv page of 100 papers from `first` on, each signed by 120 people (12,000 names a page). */
function collaborationPage(first: number, total: number): string {
  const feed = fixture('arxiv/search-all-testing-start0-max10.xml').toString('utf8');
  const head = feed.slice(0, feed.indexOf('<entry>')).replace(/<opensearch:totalResults>\d+</, `<opensearch:totalResults>${total}<`);
  const entry = feed.match(/<entry>[\s\S]*?<\/entry>/)![0];
  const signed = (n: number) => Array.from({ length: AUTHORS }, (_, a) => `<author><name>Given${a} Family${a}-${n}</name></author>`).join('');
  const entries = Array.from({ length: RECORDS }, (_, i) => {
    const n = first + i;
    return entry
      .replace(/\d{4}\.\d{4,5}(v\d)/g, `2401.${10000 + n}$1`)
      .replace(/<arxiv:doi>.*?<\/arxiv:doi>/, '')
      .replace(/<link[^>]*title="doi"\/>/, '')
      .replace('<title>', `<title>Collaboration ${n}: `)
      .replace(/<author>[\s\S]*<\/author>/, signed(n));
  });
  return `${head}${entries.join('\n')}\n</feed>\n`;
}

let arxiv: Stub;
let t: TestServer;

test.before(async () => {
  arxiv = await startStub([
    // Late, so the test is listening to the run's events before its first page comes.
    { path: '/query', query: { start: '0' }, body: collaborationPage(0, 2 * RECORDS), delayMs: 500 },
    { path: '/query', query: { start: String(RECORDS) }, body: collaborationPage(RECORDS, 2 * RECORDS) },
  ]);
  t = await serverWithSources({ arxiv: arxiv.url });
});
test.after(async () => {
  await t.close();
  await arxiv.close();
});

test('each page of 100 papers of 120 authors is in the run when its page is reported, not buffered for the next', async () => {
  const id = await dive(t, { repository: 'arxiv', query: 'collaboration', max_results: 2 * RECORDS });
  const storedAtPage = new Map<number, number>();
  const count = t.ctx.db.prepare('SELECT count(*) FROM execution_documents WHERE execution_id = ?').pluck();
  const stop = t.ctx.bus.on(`execution:${id}`, (event: any) => {
    if (event.kind === 'source_page') storedAtPage.set(event.data.page, count.get(id) as number);
  });
  try {
    const detail = await finished(t, id, 60_000);
    assert.is(detail.status, 'completed');
    assert.is(detail.result_count, 2 * RECORDS);
  } finally {
    stop();
  }
  assert.equal([...storedAtPage], [[1, RECORDS], [2, 2 * RECORDS]]);
  arxiv.assertDone();
});

test.run();
