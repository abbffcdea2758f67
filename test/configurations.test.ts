// HTTP in-process (t.inProcess): these tests are about the routes, not the socket.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_EXPORT_IDS, MAX_IMPORT_BYTES, MAX_IMPORT_CONFIGURATIONS, MAX_IMPORT_FILES } from '../src/configurations/transfer.js';
import { MAX_CONFIG_NAME } from '../src/configurations/schema.js';
import { startTestServer, type TestServer } from './_setup.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(async () => {
  await t.close();
});

const BOUNDARY = 'svc-test-boundary-7d93';
function multipart(files: { filename: string; content: string }[], field = 'files'): { body: Buffer; headers: Record<string, string> } {
  const parts = files.map((f) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${f.filename}"\r\nContent-Type: application/json\r\n\r\n${f.content}\r\n`);
  return { body: Buffer.from(parts.join('') + `--${BOUNDARY}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}
const upload = (files: { filename: string; content: string }[], field?: string) => {
  const { body, headers } = multipart(files, field);
  return t.inProcess('POST', '/api/configurations/import', { body: body.toString('latin1'), headers: { ...headers, 'content-length': String(body.length) } });
};
const count = () => t.ctx.db.prepare('SELECT count(*) FROM saved_configurations').pluck().get() as number;

test('create each accepted config_type, validated as the request it stands for; other types are 422', async () => {
  const made = [
    { name: 'one source', config_type: 'dive', parameters: { repository: 'arxiv', query: 'graphs', max_results: 20 } },
    { name: 'several', config_type: 'sweep', parameters: { repositories: ['crossref', 'pubmed'], query: 'ecology', date_from: '2024-01-01' } },
    { name: 'for a routine', config_type: 'routine', parameters: { repositories: ['crossref'], query: 'ecology', window_days: 7 } },
  ];
  for (const body of made) {
    const r = await t.inProcess('POST', '/api/configurations', { body });
    assert.is(r.status, 201, r.text);
    const c = r.json();
    assert.equal([c.name, c.config_type, c.parameters, c.linked_execution_id], [body.name, body.config_type, body.parameters, null]);
  }
  const refusals: [unknown, (string | number)[]][] = [
    [{ name: 'x', config_type: 'explorer', parameters: {} }, ['body', 'config_type']],
    [{ name: 'x', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q', repositories: ['x'] } }, ['body', 'parameters', 'repositories']],
    [{ name: 'x', config_type: 'sweep', parameters: { repositories: ['nowhere'], query: 'q' } }, ['body', 'parameters', 'repositories']],
    [{ name: 'x', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q', date_from: '2024-02-30' } }, ['body', 'parameters', 'date_from']],
    [{ name: 'x', config_type: 'sweep', parameters: { repositories: ['arxiv'], query: 'q', ephemeral_credentials: { core_api_key: 'k-123' } } }, ['body', 'parameters', 'ephemeral_credentials']],
    [{ name: 'x', config_type: 'routine', parameters: { repositories: ['arxiv'], query: 'q', date_to: '2024-01-01' } }, ['body', 'parameters', 'date_to']],
    [{ name: '', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q' } }, ['body', 'name']],
    [{ name: 'n'.repeat(MAX_CONFIG_NAME + 1), config_type: 'dive', parameters: { repository: 'arxiv', query: 'q' } }, ['body', 'name']],
    [{ name: 'x', config_type: 'dive', parameters: [] }, ['body', 'parameters']],
  ];
  for (const [body, loc] of refusals) {
    const r = await t.inProcess('POST', '/api/configurations', { body });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.equal(r.json().detail[0].loc, loc, JSON.stringify(body));
    assert.not.match(r.text, /k-123/);
  }
  const listed = (await t.inProcess('GET', '/api/configurations')).json();
  assert.is(listed.total, 3);
  assert.equal((await t.inProcess('GET', '/api/configurations?config_type=sweep')).json().configurations.map((c: any) => c.name), ['several']);
  assert.is((await t.inProcess('GET', '/api/configurations?config_type=nope')).status, 422);
});

test('link_to_execution_id links the execution it was saved from; delete unlinks; update changes name and parameters only', async () => {
  const exec = t.ctx.db
    .prepare(`INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc) VALUES ('dive', 'completed', 'q', '["arxiv"]', '{}', ?)`)
    .run(t.ctx.nowIso()).lastInsertRowid as number;
  assert.is((await t.inProcess('POST', '/api/configurations', { body: { name: 'l', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q' }, link_to_execution_id: 999_999 } })).status, 404);
  const c = (await t.inProcess('POST', '/api/configurations', { body: { name: 'l', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q' }, link_to_execution_id: exec } })).json();
  assert.equal([c.linked_execution_id, c.execution_count], [exec, 1]);
  assert.is(t.ctx.db.prepare('SELECT saved_configuration_id FROM executions WHERE id = ?').pluck().get(exec), c.id);
  const renamed = (await t.inProcess('PUT', `/api/configurations/${c.id}`, { body: { name: 'renamed', parameters: null } })).json();
  assert.equal([renamed.name, renamed.parameters], ['renamed', { repository: 'arxiv', query: 'q' }]);
  const bad = await t.inProcess('PUT', `/api/configurations/${c.id}`, { body: { parameters: { query: 'q' } } });
  assert.is(bad.status, 422);
  const changed = (await t.inProcess('PUT', `/api/configurations/${c.id}`, { body: { parameters: { repository: 'pubmed', query: 'cells' } } })).json();
  assert.equal([changed.name, changed.parameters.repository, changed.config_type], ['renamed', 'pubmed', 'dive']);
  assert.equal((await t.inProcess('DELETE', `/api/configurations/${c.id}`)).json(), { id: c.id, deleted: true, executions_unlinked: 1 });
  assert.is(t.ctx.db.prepare('SELECT saved_configuration_id FROM executions WHERE id = ?').pluck().get(exec), null);
  assert.is((await t.inProcess('DELETE', `/api/configurations/${c.id}`)).status, 404);
  assert.is((await t.inProcess('PUT', `/api/configurations/${c.id}`, { body: {} })).status, 404);
});

test('export writes one JSON file for the ids; import (multipart files) brings it back; an unknown id exports nothing', async () => {
  const ids = (await t.inProcess('GET', '/api/configurations')).json().configurations.map((c: any) => c.id);
  const r = await t.inProcess('POST', '/api/configurations/export', { body: { ids } });
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-disposition']), /attachment; filename="svc-configurations-.*\.json"/);
  const doc = JSON.parse(r.text);
  assert.equal([doc.format, doc.version, doc.configurations.length], ['svc-configurations', 1, ids.length]);
  assert.is((await t.inProcess('POST', '/api/configurations/export', { body: { ids: [...ids, 777_777] } })).status, 404);
  assert.is((await t.inProcess('POST', '/api/configurations/export', { body: { ids: [] } })).status, 422);
  assert.is((await t.inProcess('POST', '/api/configurations/export', { body: { ids: Array.from({ length: MAX_EXPORT_IDS + 1 }, (_, i) => i + 1) } })).status, 422);

  const before = count();
  const single = JSON.stringify({ name: 'bare', config_type: 'dive', parameters: { repository: 'arxiv', query: 'single' } });
  const imported = await upload([{ filename: 'export.json', content: r.text }, { filename: 'one.json', content: single }]);
  assert.is(imported.status, 201, imported.text);
  // The exported ones are saved here already: brought back, not doubled.
  assert.equal([imported.json().count, imported.json().already_present.map((c: any) => c.id)], [1, ids]);
  assert.is(count(), before + 1);
  const names = (await t.inProcess('GET', '/api/configurations')).json().configurations.map((c: any) => c.name);
  assert.ok(names.includes('bare'));
});

test('import never doubles a configuration: the same file twice stores once; a shared name with other parameters is stored and named', async () => {
  const entry = (query: string) => ({ name: 'twice', config_type: 'sweep', parameters: { repositories: ['arxiv'], query } });
  const before = count();
  // Within one import too: the second equal entry (key order aside) is the first one.
  const file = JSON.stringify([entry('first'), { parameters: { query: 'first', repositories: ['arxiv'] }, config_type: 'sweep', name: 'twice' }]);
  let r = await upload([{ filename: 'a.json', content: file }]);
  assert.is(r.status, 201, r.text);
  const first = r.json();
  assert.equal([first.count, first.already_present.length, first.shared_names], [1, 1, []]);
  assert.is(first.already_present[0].id, first.imported[0].id);
  r = await upload([{ filename: 'a.json', content: file }]);
  assert.equal([r.json().count, r.json().imported, r.json().already_present.map((c: any) => c.id)], [0, [], [first.imported[0].id, first.imported[0].id]]);
  assert.is(count(), before + 1, 'the second import changed nothing');
  r = await upload([{ filename: 'b.json', content: JSON.stringify(entry('second')) }]);
  const second = r.json();
  assert.equal([second.count, second.shared_names], [1, [{ id: second.imported[0].id, name: 'twice', shared_with: [first.imported[0].id] }]]);
  assert.is(count(), before + 2);
});

test('import is all or nothing, names the bad entry, and refuses what is not a multipart of files', async () => {
  const before = count();
  const good = JSON.stringify([{ name: 'ok', config_type: 'sweep', parameters: { repositories: ['arxiv'], query: 'q' } }]);
  const badType = JSON.stringify({ format: 'svc-configurations', version: 1, configurations: [{ name: 'ok', config_type: 'sweep', parameters: { repositories: ['arxiv'], query: 'q' } }, { name: 'bad', config_type: 'saved_view', parameters: {} }] });
  let r = await upload([{ filename: 'good.json', content: good }, { filename: 'bad.json', content: badType }]);
  assert.is(r.status, 422);
  assert.equal(r.json().detail[0].loc, ['body', 'files', 1, 'configurations', 1, 'config_type']);
  assert.is(count(), before, 'nothing stored');
  r = await upload([{ filename: 'broken.json', content: '{"name": ' }]);
  assert.equal([r.status, r.json().detail[0].loc, r.json().detail[0].type], [422, ['body', 'files', 0], 'json_invalid']);
  r = await upload([{ filename: 'dup.json', content: '{"name": "a", "name": "b", "config_type": "dive", "parameters": {}}' }]);
  assert.is(r.status, 422);
  r = await upload([{ filename: 'v2.json', content: JSON.stringify({ format: 'svc-configurations', version: 2, configurations: [] }) }]);
  assert.equal(r.json().detail[0].loc, ['body', 'files', 0, 'version']);
  r = await upload([{ filename: 'x.json', content: good }], 'file');
  assert.equal([r.status, r.json().detail[0].loc], [422, ['body', 'files']]);
  r = await t.inProcess('POST', '/api/configurations/import', { body: { files: [good] } });
  assert.is(r.status, 415);
  assert.is(count(), before);
});

test('import limits: files per request, configurations per import, bytes per request', async () => {
  const one = JSON.stringify({ name: 'n', config_type: 'dive', parameters: { repository: 'arxiv', query: 'q' } });
  let r = await upload(Array.from({ length: MAX_IMPORT_FILES + 1 }, (_, i) => ({ filename: `${i}.json`, content: one })));
  assert.equal([r.status, r.json().detail[0].loc], [422, ['body', 'files']]);
  const many = JSON.stringify(Array.from({ length: MAX_IMPORT_CONFIGURATIONS + 1 }, () => JSON.parse(one)));
  r = await upload([{ filename: 'many.json', content: many }]);
  assert.is(r.status, 422);
  assert.match(r.json().detail[0].msg, new RegExp(`At most ${MAX_IMPORT_CONFIGURATIONS}`));
  r = await upload([{ filename: 'big.json', content: ' '.repeat(MAX_IMPORT_BYTES) + one }]);
  assert.is(r.status, 413);
  const before = count();
  r = await upload(Array.from({ length: MAX_IMPORT_FILES }, (_, i) => ({ filename: `${i}.json`, content: one.replace('"n"', `"n${i}"`) })));
  assert.is(r.status, 201);
  assert.is(count(), before + MAX_IMPORT_FILES);
});

test.run();
