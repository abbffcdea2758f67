/**
 * Hostile-input suite, source answers (see hostile-input.test.ts for the whole list): XML
 * with an external entity, a billion-laughs document and a quadratic entity blow-up from
 * arXiv and PubMed, and a gzip bomb, each answered by a loopback server in place of the
 * real endpoint (SVC_SOURCE_<ID>_URL) to a real run of the server. An external entity or a
 * blow-up is a parse_failure that says what was refused, nothing fetched or read; billion
 * laughs is never expanded (the reference stays as written); the gzip bomb stops at the
 * page cap (svc-search(1), SOURCE CAPS) as parse_failure. Time and memory stay bounded, nothing of the attack is
 * stored, and the canary beside svc's folders is untouched.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { SOURCE_CAPS } from '../src/sources/caps.js';
import { finished } from './_executions.js';
import { plantCanary, type Canary } from './_hostile.js';
import { fixture, startTestServer, type TestServer } from './_setup.js';

const CANARY_WORDS = 'years of work';

/** What a hostile endpoint answers for one path, and how much of it went out. */
type Answer = (res: http.ServerResponse) => void;

interface Hostile {
  url: string;
  /** Every request path the endpoint saw (an external entity fetched from here would show). */
  seen: string[];
  answer: Record<string, Answer>;
  close(): Promise<void>;
}

async function hostileEndpoint(): Promise<Hostile> {
  const peer: Hostile = { url: '', seen: [], answer: {}, close: async () => {} };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    peer.seen.push(path);
    const answer = peer.answer[path];
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return peer;
}

const xml = (body: string): Answer => (res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body);

let t: TestServer;
let peer: Hostile;
let canary: Canary;

test.before(async () => {
  peer = await hostileEndpoint();
  // The default source timeout (30 s): the answer bound, not the clock, must be what stops the gzip bomb.
  t = await startTestServer({
    env: { SVC_SOURCE_ARXIV_URL: peer.url, SVC_SOURCE_PUBMED_URL: peer.url },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, executionHeartbeatMs: 50 } },
  });
  canary = plantCanary(t.dirs.root);
});
test.after(async () => {
  await t.close();
  await peer.close();
});
test.after.each(() => canary.check());

/** One Atom entry, its title and summary given (entity references allowed). */
const atomFeed = (doctype: string, title: string, summary: string) => `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2405.13786v1</id>
    <published>2024-05-22T17:00:00Z</published>
    <title>${title}</title>
    <summary>${summary}</summary>
    <author><name>Aurora Ramírez</name></author>
    <link href="http://arxiv.org/abs/2405.13786v1" rel="alternate" type="text/html"/>
  </entry>
</feed>`;

/** The recorded PubMed efetch answer with `doctype` in place of its DOCTYPE and `reference` inside its first title. */
function pubmedWith(doctype: string, reference: string): string {
  const recorded = fixture('pubmed/efetch-pubmed-11748933-11700088.xml').toString('utf8');
  return recorded.replace(/<!DOCTYPE[^>]*>/, doctype).replace('<ArticleTitle>Is cryopreservation', `<ArticleTitle>${reference} Is cryopreservation`);
}

/** Run one dive and answer its detail, the time it took and every document text it stored. */
async function diveInto(repository: string, query: string) {
  const started = Date.now();
  const r = await t.request('POST', '/api/search/dive', { body: { repository, query, max_results: 2 } });
  assert.is(r.status, 202, r.text);
  const detail = await finished(t, r.json().id, 20_000);
  const stored = JSON.stringify(t.ctx.db.prepare('SELECT * FROM documents').all());
  const log = (await t.request('GET', `/api/executions/${detail.id}/log`)).text;
  return { detail, ms: Date.now() - started, source: detail.sources.find((s: any) => s.source === repository), stored, log };
}

const documentCount = () => t.ctx.db.prepare('SELECT count(*) FROM documents').pluck().get() as number;

test('an external entity (a file beside svc, a loopback URL) in arXiv and PubMed answers: parse_failure, nothing read, nothing fetched, nothing stored', async () => {
  const before = documentCount();
  const doctype = (root: string) => `<!DOCTYPE ${root} [
  <!ENTITY secret SYSTEM "file://${canary.dir}/thesis.tex">
  <!ENTITY remote SYSTEM "${peer.url}/entity">
]>`;
  peer.answer['/query'] = xml(atomFeed(doctype('feed'), 'Testing &secret; &remote;', 'About &secret;'));
  const arxiv = await diveInto('arxiv', 'testing');
  peer.answer['/esearch.fcgi'] = xml(fixture('pubmed/esearch-pubmed-biopython.xml').toString('utf8'));
  peer.answer['/efetch.fcgi'] = xml(pubmedWith(doctype('PubmedArticleSet'), '&secret; &remote;'));
  const pubmed = await diveInto('pubmed', 'biopython');
  for (const run of [arxiv, pubmed]) {
    assert.equal([run.detail.status, run.detail.error], ['failed', `No source answered: ${run.source.source} parse_failure.`]);
    assert.is(run.source.zero_reason, 'parse_failure', JSON.stringify(run.source));
    assert.match(run.source.message, /XML svc will not read \(External entities are not supported\)/, 'the message names what was refused');
    for (const said of [run.stored, run.log, JSON.stringify(run.detail)]) assert.not.ok(said.includes(CANARY_WORDS), 'the file the entity named was never read into svc');
  }
  assert.not.ok(peer.seen.includes('/entity'), 'the entity URL was never fetched');
  assert.is(documentCount(), before, 'nothing stored');
});

test('billion laughs (nested entities) is never expanded: the reference is kept as written, the run ends at once, memory stays flat', async () => {
  const levels = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  const doctype = (root: string) => `<!DOCTYPE ${root} [\n${levels.join('\n')}\n]>`;
  peer.answer['/query'] = xml(atomFeed(doctype('feed'), 'Laughs &lol9;', 'Summary &lol9;&lol9;&lol9;'));
  peer.answer['/efetch.fcgi'] = xml(pubmedWith(doctype('PubmedArticleSet'), '&lol9;'));
  const rss = process.memoryUsage().rss;
  for (const [repository, query] of [['arxiv', 'laughs'], ['pubmed', 'biopython']] as const) {
    const run = await diveInto(repository, query);
    assert.is(run.detail.status, 'completed');
    // The parser drops an entity whose value holds references (lol1 … lol9), so &lol9; stays text.
    assert.is(run.source.zero_reason, null, JSON.stringify(run.source));
    assert.ok(run.stored.includes('&lol9;'), `${repository}: the reference is stored as written`);
    assert.ok(run.ms < 5000, `${repository} finished promptly (${run.ms} ms)`);
    assert.not.ok(/(lol){4}/.test(run.stored), `${repository}: no expansion reached the corpus`);
    assert.ok(run.stored.length < 1_000_000, `${repository}: the stored papers stay small (${run.stored.length})`);
  }
  assert.ok(process.memoryUsage().rss - rss < 200 * 1024 * 1024, 'memory did not grow by the expansion (10^9 × "lol")');
});

test('a quadratic blow-up (one big entity referenced thousands of times) is refused as parse_failure', async () => {
  const before = documentCount();
  const doctype = `<!DOCTYPE feed [<!ENTITY big "${'A'.repeat(9000)}">]>`;
  // In a journal reference, an element the parser decodes (title and summary are kept as raw markup).
  const feed = atomFeed(doctype, 'Blow-up', 'Summary').replace('</entry>', `<arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">${'&big;'.repeat(20_000)}</arxiv:journal_ref></entry>`);
  peer.answer['/query'] = xml(feed);
  const run = await diveInto('arxiv', 'blowup');
  assert.is(run.source.zero_reason, 'parse_failure', JSON.stringify(run.source));
  assert.match(run.source.message, /XML svc will not read \(Expanded content length limit exceeded/);
  assert.ok(run.ms < 5000, `finished promptly (${run.ms} ms)`);
  assert.is(documentCount(), before);
});

test('a gzip bomb (Content-Encoding: gzip inflating to 64 GiB) stops at the page cap: parse_failure naming the cap, not retried, the connection dropped', async () => {
  // 4,096 gzip members of 16 MiB of zeros each: 64 GiB once inflated, about 64 MB on the wire.
  const member = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  const members = 4096;
  const state = { sent: 0, requests: 0, closed: false };
  peer.answer['/query'] = (res) => {
    state.requests++;
    res.on('close', () => (state.closed = true));
    res.writeHead(200, { 'content-type': 'application/atom+xml', 'content-encoding': 'gzip' });
    const pump = () => {
      while (state.sent < members && !res.destroyed) {
        state.sent++;
        if (!res.write(member)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
  const rss = process.memoryUsage().rss;
  const running = diveInto('arxiv', 'bomb');
  await new Promise((r) => setTimeout(r, 500));
  const asked = Date.now();
  assert.is((await t.request('GET', '/api/health')).status, 200);
  assert.ok(Date.now() - asked < 2000, `the server answers while the bomb inflates (${Date.now() - asked} ms)`);
  const run = await running;
  // Inflating what the page cap lets through takes fetch a few seconds here; all 64 GiB would take most of an hour.
  assert.ok(run.ms < 20_000, `finished at the bound (${run.ms} ms)`);
  assert.is(run.source.zero_reason, 'parse_failure', JSON.stringify(run.source));
  assert.match(run.source.message, /passed the \d+ MiB page cap; svc stopped reading it/);
  assert.is(state.requests, 1, 'not retried');
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(state.closed, 'svc hung up');
  assert.ok(state.sent < members / 4, `most of the bomb was never sent (${state.sent} of ${members} members)`);
  assert.ok(process.memoryUsage().rss - rss < SOURCE_CAPS.pageBytesMax * 4, 'memory stayed within a few times the bound');
});

test.run();
