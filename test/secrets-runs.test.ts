/**
 * Security audit, source keys: a source that echoes the key it was sent (in an
 * error it answers) must not carry the key into anything svc keeps or shows —
 * the execution read, log, report, search record, progress events, the
 * database (which backups copy), the report file or a log line. Both a stored
 * key and a run's ephemeral key.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';
import type { TestServer } from './_setup.js';

const STORED = 'ncbiSTOREDaudit7f3e9c';
const EPHEMERAL = 'ncbiEPHEMERALaudit2b8d4a';
let stub: Stub;
let t: TestServer;

test.before(async () => {
  stub = await startStub();
  t = await serverWithSources({ pubmed: stub.url });
});
test.after(async () => {
  await t.close();
  await stub.close();
});

/** esearch answers an error that quotes the api_key it received, as some APIs do. */
function echoingSearch(key: string) {
  stub.expect({ path: '/esearch.fcgi', query: { api_key: key }, body: `<?xml version="1.0"?><eSearchResult><ERROR>API key invalid: ${key} (api_key=${encodeURIComponent(key)})</ERROR></eSearchResult>` });
}

async function outputsOf(id: number): Promise<string> {
  const parts: string[] = [];
  for (const p of ['', '/log', '/report', '/search-record', '/progress/events', '/documents', '/references?format=json']) {
    parts.push((await t.request('GET', `/api/executions/${id}${p}`)).text);
  }
  parts.push((await t.request('GET', '/api/executions')).text);
  const reports = path.join(t.dirs.dataDir, 'reports');
  if (fs.existsSync(reports)) for (const f of fs.readdirSync(reports)) parts.push(fs.readFileSync(path.join(reports, f), 'utf8'));
  t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  for (const suffix of ['', '-wal']) {
    const file = t.ctx.paths.database + suffix;
    if (fs.existsSync(file)) parts.push(fs.readFileSync(file).toString('latin1'));
  }
  parts.push(t.logLines.join('\n'));
  return parts.join('\n');
}

test('a stored key echoed back by the source reaches no output', async () => {
  t.ctx.credentials.set('ncbi_api_key', STORED);
  echoingSearch(STORED);
  const id = await dive(t, { repository: 'pubmed', query: 'coral reefs', max_results: 5 });
  const detail = await finished(t, id);
  assert.ok(['completed', 'failed'].includes(detail.status), detail.status);
  const record = (await t.request('GET', `/api/executions/${id}/search-record`)).text;
  assert.match(record, /refused the search/, 'the upstream refusal is still told');
  const all = await outputsOf(id);
  assert.not.ok(all.includes(STORED), 'the stored key leaked');
});

test('an ephemeral key echoed back by the source reaches no output and is never stored', async () => {
  echoingSearch(EPHEMERAL);
  const id = await dive(t, { repository: 'pubmed', query: 'kelp forests', max_results: 5, ephemeral_credentials: { ncbi_api_key: EPHEMERAL } });
  await finished(t, id);
  assert.equal(stub.requests.at(-1)?.query.get('api_key'), EPHEMERAL, 'the ephemeral key was used');
  const all = await outputsOf(id);
  assert.not.ok(all.includes(EPHEMERAL), 'the ephemeral key leaked');
  assert.is(t.ctx.credentials.status('ncbi_api_key'), 'present');
  assert.not.ok(fs.readFileSync(path.join(t.dirs.stateDir, 'credentials.json'), 'utf8').includes(EPHEMERAL));
});

test('a user name and password in a source URL (SVC_SOURCE_<ID>_URL naming a proxy) reach no output', async () => {
  const PASSWORD = 'proxyPASSaudit5c1e';
  const withUser = stub.url.replace('http://', `http://proxyUSERaudit:${PASSWORD}@`);
  const own = await serverWithSources({ pubmed: withUser });
  try {
    const id = await dive(own, { repository: 'pubmed', query: 'sea grass', max_results: 5 });
    await finished(own, id);
    const record = (await own.request('GET', `/api/executions/${id}/search-record`)).json();
    const pubmed = record.sources.find((s: any) => s.source === 'pubmed');
    assert.is(pubmed.request.base_url, stub.url.replace('http://', 'http://***@'), 'the base URL is recorded, its user-info blanked');
    const before = t;
    t = own; // outputsOf reads the server in `t`
    const all = await outputsOf(id).finally(() => (t = before));
    assert.not.ok(all.includes(PASSWORD), 'the password leaked');
    assert.not.ok(all.includes('proxyUSERaudit'), 'the user name leaked');
  } finally {
    await own.close();
  }
});

test.run();
