/**
 * Hostile-input suite, SQL and FTS metacharacters and NUL bytes (see hostile-input.test.ts for
 * the whole list): quote-and-comment injections, FTS5 syntax (NEAR(, column filters, a bare *,
 * ^, unbalanced quotes), LIKE wildcards and NUL bytes in every free text that reaches SQL or
 * the full-text index — the explorer's query and filters (search, facets, export), the Library
 * list's name search, the conversation browser's title search, routine names, intents and
 * queries (and the coverage audit that turns an intent into FTS terms), configuration and
 * profile names, Evidence project names — and in path parameters, query parameters and
 * headers. Each answers a typed 4xx or a correct result (a literal match or an empty one),
 * never a 500; afterwards every table and the search index are as before, apart from the
 * rows the accepted requests created, and the canary beside svc's folders is whole.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { listTables } from '../src/admin/repo.js';
import { dive, finished } from './_executions.js';
import { plantCanary, type Canary } from './_hostile.js';
import { LIB_HEADERS, RENDERER } from './_library.js';
import { fixture, startTestServer, type RawResponse, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';

const HOSTILE = [
  `"'); DROP TABLE documents;--`,
  `' OR '1'='1`,
  `1; DELETE FROM routines`,
  'NEAR(',
  'NEAR(ecology reef, 2)',
  '*',
  'ecology*"',
  '"unbalanced',
  "'unbalanced",
  'title: ecology',
  '{title abstract}: ecology',
  '^ecology',
  'ecology OR',
  'AND',
  'NOT ecology',
  '-',
  '%',
  '_',
  '\\',
  ')(',
  'ecology\u0000',
  '\u0000',
  'eco\u0000logy',
];

let t: TestServer;
let stub: Stub;
let canary: Canary;
let vaultId: string;
let documents: number;
let tables: string[];

/** What the index answers for a word every stored paper of the fixture has. */
const ecologyHits = async () => (await t.request('POST', '/api/explorer/search', { body: { query: 'ecology', limit: 50 } })).json().papers.length as number;

test.before(async () => {
  stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await startTestServer({
    rendererOrigin: RENDERER,
    env: { SVC_SOURCE_CROSSREF_URL: stub.url },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, executionHeartbeatMs: 50 } },
  });
  await finished(t, await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 }));
  const parent = path.join(t.dirs.root, 'parent');
  fs.mkdirSync(parent);
  vaultId = (await t.request('POST', '/api/library/vault', { body: { parent_directory: parent }, headers: LIB_HEADERS })).json().vault.vault_id;
  canary = plantCanary(t.dirs.root);
  documents = t.ctx.db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  tables = listTables(t.ctx.db).map((x) => x.name);
  assert.ok(documents > 0 && (await ecologyHits()) > 0, 'a corpus to attack');
});
test.after(async () => {
  await t.close();
  await stub.close();
});
test.after.each(async () => {
  canary.check();
  assert.equal(listTables(t.ctx.db).map((x) => x.name), tables, 'every table is still there');
  assert.is(t.ctx.db.prepare('SELECT count(*) FROM documents').pluck().get(), documents, 'no paper lost or added');
  assert.is(t.ctx.db.pragma('integrity_check', { simple: true }), 'ok');
  assert.ok((await ecologyHits()) > 0, 'the search index still answers');
});

/** A typed refusal (4xx with a detail) or a success; never a 500. */
function typed(r: RawResponse, what: string): 'ok' | 'refused' {
  assert.ok(r.status < 500, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
  if (r.status < 300) return 'ok';
  assert.ok(r.status >= 400, `${what}: ${r.status}`);
  assert.ok(r.json().detail !== undefined, `${what}: a detail`);
  return 'refused';
}

const show = (s: string) => JSON.stringify(s);

test('explorer search, facets and export: every hostile query and filter value is a 422 or a correct answer', async () => {
  for (const q of HOSTILE) {
    const search = await t.request('POST', '/api/explorer/search', { body: { query: q } });
    if (typed(search, `search ${show(q)}`) === 'refused') {
      assert.is(search.status, 422);
      assert.equal(search.json().detail[0].loc, ['body', 'query'], show(q));
    } else {
      // Whatever matched holds every word of the query: an injection cannot widen the match.
      const words = q.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      for (const paper of search.json().papers) {
        const row = JSON.stringify(t.ctx.db.prepare('SELECT * FROM documents WHERE id = ?').get(paper.id)).toLowerCase();
        for (const word of words) assert.ok(row.includes(word), `${show(q)} matched paper ${paper.id} without "${word}"`);
      }
    }
    for (const body of [{ query: q }, { authors: [q] }, { categories: [q] }, { sources: [q] }]) {
      typed(await t.request('POST', '/api/explorer/facets', { body }), `facets ${JSON.stringify(body)}`);
      typed(await t.request('POST', '/api/explorer/export', { body: { ...body, format: 'bibtex' } }), `export ${JSON.stringify(body)}`);
    }
    for (const filter of ['authors', 'categories', 'sources']) {
      const r = await t.request('POST', '/api/explorer/search', { body: { [filter]: [q] } });
      if (typed(r, `${filter} ${show(q)}`) === 'ok') assert.equal(r.json().papers, [], `${filter} ${show(q)} matches nothing literally`);
    }
  }
  // A quote-and-comment injection after a word every paper has: its words are AND-ed, and no stored paper holds the word 1.
  const injected = await t.request('POST', '/api/explorer/search', { body: { query: `ecology" OR 1=1 --` } });
  assert.is(injected.status, 200, injected.text);
  assert.equal(injected.json().papers, [], 'ecology AND 1 AND 1, not ecology OR true');
});

test('the Library list name search and the conversation browser take %, _ and \\ literally; NUL is refused or matches nothing', async () => {
  const lib = (q: string) => t.request('GET', `/api/library/files?expected_vault_id=${vaultId}&q=${encodeURIComponent(q)}`, { headers: LIB_HEADERS });
  const imported = await t.request('POST', `/api/library/files?expected_vault_id=${vaultId}&filename=${encodeURIComponent('100% reef_notes.txt')}`, {
    headers: { ...LIB_HEADERS, 'content-type': 'application/octet-stream' },
    body: 'reef notes\n',
  });
  assert.is(imported.status, 201, imported.text);
  const session = await t.request('POST', '/api/assistant/sessions', { body: { title: '100% reef_talk' } });
  assert.is(session.status, 201, session.text);
  const browse = (q: string) => t.request('GET', `/api/assistant/sessions/browse?q=${encodeURIComponent(q)}`);
  for (const q of HOSTILE) {
    for (const [what, r] of [['library', await lib(q)], ['browse', await browse(q)]] as const) {
      if (typed(r, `${what} ${show(q)}`) === 'refused') continue;
      const names = what === 'library' ? r.json().items.map((f: any) => f.original_name) : r.json().sessions.map((x: any) => x.title);
      const expected = q === '%' || q === '_' ? names.length : 0;
      assert.is(names.length, expected, `${what} ${show(q)}: ${JSON.stringify(names)}`);
      if (q === '%' || q === '_') assert.ok(names.every((n: string) => n.includes(q)), `${what} ${show(q)} is literal`);
    }
  }
  assert.equal((await lib('%')).json().items.map((f: any) => f.original_name), ['100% reef_notes.txt']);
  assert.equal((await browse('_t')).json().sessions.map((x: any) => x.title), ['100% reef_talk']);
  assert.equal((await browse('x_t')).json().sessions, [], '_ is not a wildcard');
});

test('routine names, intents and queries, configuration, profile and project names: stored as written or refused; the coverage audit answers', async () => {
  for (const q of HOSTILE) {
    const routine = await t.request('POST', '/api/routines', {
      body: { name: `r ${q}`, schedule_cron: '0 6 * * 1', intent: `reef ecology ${q}`, is_active: false, parameters: { repositories: ['crossref'], query: `ecology ${q}` } },
    });
    if (typed(routine, `routine ${show(q)}`) === 'ok') {
      const id = routine.json().id;
      const read = (await t.request('GET', `/api/routines/${id}`)).json();
      assert.is(read.name, `r ${q}`.trim(), 'stored as written');
      typed(await t.request('GET', `/api/routines/${id}/coverage`), `coverage ${show(q)}`);
      typed(await t.request('PUT', `/api/routines/${id}`, { body: { name: q, intent: q } }), `routine update ${show(q)}`);
    }
    typed(await t.request('POST', '/api/configurations', { body: { name: q, config_type: 'dive', parameters: { repository: 'crossref', query: q } } }), `configuration ${show(q)}`);
    typed(await t.request('POST', '/api/profiles', { body: { kind: 'person', name: q, display_name: q } }), `profile ${show(q)}`);
    typed(await t.request('POST', '/api/evidence/projects', { body: { expected_vault_id: vaultId, name: q }, headers: LIB_HEADERS }), `project ${show(q)}`);
  }
  typed(await t.request('GET', '/api/routines'), 'routine list');
  typed(await t.request('GET', '/api/configurations'), 'configuration list');
  typed(await t.request('GET', '/api/profiles'), 'profile list');
});

test('path and query parameters with SQL or NUL: typed 4xx', async () => {
  const paths = [
    ['GET', '/api/executions/1%00'],
    ['GET', `/api/executions/1'%20OR%20'1'='1`],
    ['GET', '/api/executions/1;DROP%20TABLE%20executions'],
    ['DELETE', '/api/executions/1%20OR%201=1'],
    ['GET', '/api/routines/%00'],
    ['GET', '/api/documents/1%00/why'],
    ['GET', '/api/documents/1--/links'],
    ['PUT', '/api/credentials/openai_api_key%00'],
    ['DELETE', `/api/credentials/'%20OR%201=1--`],
    ['GET', '/api/profiles/1%27'],
    ['DELETE', '/api/reading-queue/1%00'],
    ['GET', '/api/executions?status=%00'],
    ['GET', `/api/executions?status='%20OR%201=1--`],
    ['GET', `/api/reading-queue?status=read'--`],
    ['GET', '/api/executions?limit=1%00'],
    ['GET', `/api/library/files/%00?expected_vault_id=${vaultId}`],
    ['GET', `/api/library/files?expected_vault_id=${vaultId}%00`],
    ['GET', `/api/evidence/projects/x'%20OR%201=1?expected_vault_id=${vaultId}`],
  ] as const;
  for (const [method, p] of paths) {
    const r = await t.request(method, p, { headers: p.includes('/library/') || p.includes('/evidence/') ? LIB_HEADERS : {}, ...(method === 'PUT' ? { body: { value: 'x' } } : {}) });
    assert.ok(r.status >= 400 && r.status < 500, `${method} ${p}: ${r.status} ${r.text.slice(0, 200)}`);
  }
});

/** One raw HTTP/1.1 request over a socket (Node's client refuses to send these header bytes); answers the status code. */
function rawStatus(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(Buffer.from(`${head}\r\n\r\n`, 'latin1')));
    let data = '';
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
  });
}

test('NUL, CR and SQL in headers (token, Host, Origin, X-Svc-Library): 400 from the parser or a guard refusal, never admitted', async () => {
  const host = `127.0.0.1:${t.port}`;
  const heads = [
    `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}\u0000`,
    `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ' OR '1'='1`,
    `GET /api/health HTTP/1.1\r\nHost: ${host}\u0000evil\r\nAuthorization: Bearer ${t.token}`,
    `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}\r\nOrigin: ${RENDERER}\u0000`,
    `GET /api/library HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}\r\nOrigin: ${RENDERER}\r\nX-Svc-Library: 1\u0000`,
    `GET /api/library HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}\r\nOrigin: ${RENDERER}\r\nX-Svc-Library: 1' OR '1'='1`,
    `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}\rX-Injected: 1`,
  ];
  for (const head of heads) {
    const status = await rawStatus(t.port, head);
    assert.ok([400, 401, 403].includes(status), `${JSON.stringify(head.split('\r\n').slice(1))}: ${status}`);
  }
  assert.is(await rawStatus(t.port, `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.token}`), 200, 'the same request, clean, is admitted');
});

test.run();
