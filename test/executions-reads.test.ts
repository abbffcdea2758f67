import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import yauzl from 'yauzl';
import { createParser } from 'eventsource-parser';
import { sortDate } from '../src/corpus/merge.js';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';

let crossref: Stub;
let europepmc: Stub;
let t: TestServer;
let ecology: number;
let cancer: number;

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  europepmc = await startStub([{ path: '/search', body: fixture('europepmc/search-cancer-lite.json'), times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url, europepmc: europepmc.url });
  ecology = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
  cancer = await dive(t, { repository: 'europepmc', query: 'cancer', max_results: 25 });
  await finished(t, ecology);
  await finished(t, cancer);
});
test.after(async () => {
  await t.close();
  await crossref.close();
  await europepmc.close();
});

test('expected_runtime_id on an execution: 422, then 409 before any lookup, then 404', async () => {
  const actual = t.ctx.runtimeId;
  const other = '3f2b8c1e-9a4d-4e7b-8c2a-1d0e9f8a7b6c';
  assert.is((await t.request('GET', `/api/executions/${ecology}?expected_runtime_id=${actual}`)).status, 200);
  assert.is((await t.request('GET', `/api/executions/${ecology}?expected_runtime_id=`)).status, 422);
  assert.is((await t.request('GET', `/api/executions/999999?expected_runtime_id=nope`)).status, 422);
  const mismatch = await t.request('GET', `/api/executions/999999?expected_runtime_id=${other}`);
  assert.is(mismatch.status, 409, 'a mismatch wins over the absent execution');
  assert.is(mismatch.json().detail.code, 'instance_mismatch');
  assert.is(mismatch.json().detail.actual_runtime_id, actual);
  const absent = await t.request('GET', `/api/executions/999999?expected_runtime_id=${actual}`);
  assert.is(absent.status, 404);
  assert.is((await t.request('GET', `/api/executions/abc`)).status, 422);
});

test('list: rows with type, times, counts, status; filters and paging', async () => {
  const all = (await t.request('GET', '/api/executions')).json();
  assert.is(all.total, 2);
  const row = all.executions.find((e: any) => e.id === ecology);
  for (const key of ['type', 'started_at_utc', 'finished_at_utc', 'result_count', 'status', 'interrupted_reason', 'restarted_from']) assert.ok(key in row, key);
  assert.is(all.executions[0].id, cancer, 'newest first');
  const page = (await t.request('GET', '/api/executions?limit=1&offset=1')).json();
  assert.equal(page.executions.map((e: any) => e.id), [ecology]);
  assert.is((await t.request('GET', '/api/executions?status=failed')).json().total, 0);
  assert.is((await t.request('GET', '/api/executions?status=bogus')).status, 422);
  assert.is((await t.request('GET', '/api/executions?limit=0')).status, 422);
  assert.equal((await t.request('GET', '/api/executions/active')).json().executions, []);
});

test('documents are paged with stored ids; log, report and search record read the run', async () => {
  const page = (await t.request('GET', `/api/executions/${cancer}/documents?limit=10&offset=20`)).json();
  assert.is(page.total, 25);
  assert.is(page.documents.length, 5);
  assert.is(page.next_offset, null);
  const first = (await t.request('GET', `/api/executions/${cancer}/documents?limit=10`)).json();
  assert.is(first.next_offset, 10);
  const log = (await t.request('GET', `/api/executions/${ecology}/log`)).json();
  assert.equal(log.events.map((e: any) => e.kind), ['execution_started', 'source_started', 'source_page', 'source_finished', 'execution_completed']);
  assert.match(log.text, /Crossref: 2 records/);
  const report = (await t.request('GET', `/api/executions/${ecology}/report`)).json();
  assert.is(report.format, 'text');
  assert.match(report.text, /Query: +"ecology"/);
  assert.match(report.text, /Communicating Ecology/);
  const record = (await t.request('GET', `/api/executions/${ecology}/search-record`)).json();
  const s = record.sources[0];
  assert.is(s.request.query, 'ecology');
  assert.is(s.request.max_results, 2);
  assert.is(s.request.key, 'none');
  assert.is(s.pages, 1);
  assert.is(s.counts.received, 2);
  assert.is(s.counts.total_reported, 586628);
  assert.match(s.timings.started_at_utc, /Z$/);
  assert.is(s.http[0].status, 200);
  assert.is(s.zero_reason, null);
  assert.match(record.recorded_at_utc, /Z$/);
});

test('progress/events is the polled form; after= resumes', async () => {
  const all = (await t.request('GET', `/api/executions/${ecology}/progress/events`)).json();
  assert.is(all.done, true);
  assert.is(all.terminal, true);
  const rest = (await t.request('GET', `/api/executions/${ecology}/progress/events?after=3`)).json();
  assert.equal(rest.events.map((e: any) => e.seq), [4, 5]);
  assert.is(rest.next_after, 5);
});

function readSse(path: string, headers: Record<string, string> = {}): Promise<{ contentType: string; frames: { id?: string; event?: string; data: string }[]; raw: string }> {
  return new Promise((resolve, reject) => {
    const frames: { id?: string; event?: string; data: string }[] = [];
    let raw = '';
    const parser = createParser({ onEvent: (e) => frames.push({ id: e.id, event: e.event, data: e.data }) });
    const req = http.get({ host: '127.0.0.1', port: t.port, path, headers: { host: `127.0.0.1:${t.port}`, authorization: `Bearer ${t.token}`, ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        parser.feed(chunk);
      });
      res.on('end', () => resolve({ contentType: String(res.headers['content-type']), frames, raw }));
    });
    req.on('error', reject);
    setTimeout(() => reject(new Error('stream did not end')), 10_000);
  });
}

test('progress/stream is SSE: id, event and data frames ending with the terminal event', async () => {
  const { contentType, frames, raw } = await readSse(`/api/executions/${ecology}/progress/stream`);
  assert.match(contentType, /^text\/event-stream/);
  assert.equal(frames.map((f) => f.event), ['execution_started', 'source_started', 'source_page', 'source_finished', 'execution_completed']);
  assert.equal(frames.map((f) => f.id), ['1', '2', '3', '4', '5']);
  assert.is(JSON.parse(frames[4]!.data).data.status, 'completed');
  assert.match(raw, /^: stream open\n\n/);
  assert.match(raw, /\nid: 5\nevent: execution_completed\ndata: \{.*\}\n\n$/);
  const resumed = await readSse(`/api/executions/${ecology}/progress/stream`, { 'last-event-id': '4' });
  assert.equal(resumed.frames.map((f) => f.id), ['5']);
});

test('a live stream follows a running execution to its end', async () => {
  const slow = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), delayMs: 400 }]);
  const live = await serverWithSources({ crossref: slow.url });
  try {
    const id = await dive(live, { repository: 'crossref', query: 'ecology', max_results: 2 });
    const frames = await new Promise<string[]>((resolve, reject) => {
      const kinds: string[] = [];
      const parser = createParser({ onEvent: (e) => kinds.push(e.event ?? '') });
      http.get({ host: '127.0.0.1', port: live.port, path: `/api/executions/${id}/progress/stream`, headers: { host: `127.0.0.1:${live.port}`, authorization: `Bearer ${live.token}` } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => parser.feed(c));
        res.on('end', () => resolve(kinds));
      }).on('error', reject);
    });
    assert.is(frames[frames.length - 1], 'execution_completed');
    assert.ok(frames.includes('source_page'));
  } finally {
    await live.close();
    await slow.close();
  }
});

test('references of one run in every format; include_ids adds stored ids to JSON', async () => {
  const bib = await t.request('GET', `/api/executions/${ecology}/references?format=bibtex`);
  assert.match(String(bib.headers['content-type']), /x-bibtex/);
  assert.match(String(bib.headers['content-disposition']), /svc-execution-\d+\.bib/);
  assert.is((bib.text.match(/^@/gm) ?? []).length, 2);
  const json = (await t.request('GET', `/api/executions/${ecology}/references?format=json&include_ids=true`)).json();
  assert.is(json.format, 'svc-references');
  assert.is(json.count, 2);
  assert.ok(json.references.every((r: any) => Number.isInteger(r.id)));
  const noIds = (await t.request('GET', `/api/executions/${ecology}/references?format=json`)).json();
  assert.not.ok('id' in noIds.references[0]);
  assert.is((await t.request('GET', `/api/executions/${ecology}/references?format=docx`)).status, 422);
  assert.is((await t.request('GET', `/api/executions/${ecology}/references?include_ids=yes`)).status, 422);
});

test('POST /api/export/references unions executions and ids, each once, newest first, unique keys', async () => {
  const ids = (await t.request('GET', `/api/executions/${ecology}/references?format=json&include_ids=true`)).json().references.map((r: any) => r.id);
  const r = await t.request('POST', '/api/export/references', { body: { execution_ids: [ecology, cancer], document_ids: [ids[0]], format: 'json', include_ids: true } });
  assert.is(r.status, 200);
  const refs = r.json().references;
  assert.is(refs.length, 27, 'the repeated document appears once');
  const order = refs.map((x: any) => [sortDate(x.publication_date), x.id]);
  for (let i = 1; i < order.length; i++) {
    const [da, ia] = order[i - 1];
    const [db, ib] = order[i];
    assert.ok(da > db || (da === db && ia > ib), `order at ${i}: ${JSON.stringify(order.slice(i - 1, i + 1))}`);
  }
  const bib = (await t.request('POST', '/api/export/references', { body: { execution_ids: [ecology, cancer] } })).text;
  const keys = [...bib.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1]);
  assert.is(keys.length, 27);
  assert.is(new Set(keys).size, keys.length, 'BibTeX keys unique within the file');
  assert.is((await t.request('POST', '/api/export/references', { body: { execution_ids: [999999] } })).status, 404);
  assert.is((await t.request('POST', '/api/export/references', { body: { document_ids: [999999] } })).status, 404);
  assert.is((await t.request('POST', '/api/export/references', { body: { document_ids: [1], format: 'xml' } })).status, 422);
});

test('POST /api/executions/export answers a zip of reports, logs and search records', async () => {
  const r = await new Promise<Buffer>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: t.port, method: 'POST', path: '/api/executions/export', headers: { host: `127.0.0.1:${t.port}`, authorization: `Bearer ${t.token}`, 'content-type': 'application/json' } }, (res) => {
      assert.is(res.headers['content-type'], 'application/zip');
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ ids: [ecology, cancer] }));
  });
  const names = await new Promise<string[]>((resolve, reject) => {
    yauzl.fromBuffer(r, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const found: string[] = [];
      zip.on('entry', (e) => (found.push(e.fileName), zip.readEntry()));
      zip.on('end', () => resolve(found));
      zip.readEntry();
    });
  });
  for (const id of [ecology, cancer]) for (const f of ['report.txt', 'log.txt', 'search-record.json']) assert.ok(names.includes(`execution-${id}/${f}`), f);
  assert.ok(names.includes('manifest.json'));
  assert.is((await t.request('POST', '/api/executions/export', { body: { ids: [999999] } })).status, 404);
  assert.is((await t.request('POST', '/api/executions/export', { body: { ids: [] } })).status, 422);
});

test('calendar events list the runs in a window', async () => {
  const events = (await t.request('GET', '/api/calendar/events')).json().events;
  assert.ok(events.some((e: any) => e.execution_id === ecology && e.kind === 'execution'));
  assert.equal((await t.request('GET', '/api/calendar/events?from=2001-01-01&to=2001-12-31')).json().events, []);
  assert.is((await t.request('GET', '/api/calendar/events?from=yesterday')).status, 422);
});

test.run();
