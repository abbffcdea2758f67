import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { closedObject, jsonBody, jsonInt, queryInt, say, text, uuid } from '../src/util/strict-schemas.js';
import { parseStrict } from '../src/util/validate.js';
import { rawRequest } from './_setup.js';
import { LIB_HEADERS, refusal, startLibraryServer, type LibraryServer } from './_library.js';

let s: LibraryServer;
let fileId = '';
let versionId = '';

test.before(async () => {
  s = await startLibraryServer();
  const r = await s.importBytes('notes.txt', 'some notes\n');
  fileId = r.json().file.file_id;
  versionId = r.json().file.version_id;
});
test.after(() => s.close());

const V = () => `expected_vault_id=${s.vaultId}`;

function postRaw(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return rawRequest(s.t.port, {
    method: 'POST',
    path,
    headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json', ...LIB_HEADERS, ...headers },
    body,
  });
}

test('unknown query keys are refused on every route', async () => {
  const cases: [string, string][] = [
    ['GET', '/api/library?x=1'],
    ['GET', `/api/library/files?${V()}&page=2`],
    ['GET', `/api/library/files/${fileId}?${V()}&verbose=1`],
    ['GET', `/api/library/export?${V()}&format=json&pretty=1`],
    ['GET', `/api/library/files/${fileId}/text?${V()}&expected_version_id=${versionId}&raw=1`],
  ];
  for (const [, path] of cases) refusal(await s.get(path), 422, 'unknown_query_key');
  refusal(await s.importBytes('a.txt', 'x', '&path=/etc/passwd'), 422, 'unknown_query_key');
  refusal(await s.post('/api/library/vault?x=1', { parent_directory: s.parent }), 422, 'unknown_query_key');
});

test('repeated query keys are refused', async () => {
  refusal(await s.get(`/api/library/files?${V()}&${V()}`), 422, 'repeated_query_key');
  refusal(await s.get(`/api/library/files?${V()}&limit=5&limit=5`), 422, 'repeated_query_key');
  refusal(await s.importBytes('a.txt', 'x', '&filename=b.txt'), 422, 'repeated_query_key');
});

test('required query keys', async () => {
  refusal(await s.get('/api/library/files'), 422, 'missing_query_key');
  refusal(await s.get(`/api/library/files/${fileId}/text?${V()}`), 422, 'missing_query_key');
  refusal(await s.get(`/api/library/export?${V()}`), 422, 'missing_query_key');
  refusal(await s.get(`/api/library/export?${V()}&format=csv`), 422, 'invalid_value');
});

test('UUIDs must be canonical lowercase', async () => {
  const upper = s.vaultId.toUpperCase();
  refusal(await s.get(`/api/library/files?expected_vault_id=${upper}`), 422, 'invalid_uuid');
  refusal(await s.get(`/api/library/files?expected_vault_id={${s.vaultId}}`), 422, 'invalid_uuid');
  refusal(await s.get(`/api/library/files?expected_vault_id=${s.vaultId.replace(/-/g, '')}`), 422, 'invalid_uuid');
  refusal(await s.get(`/api/library/files/${fileId.toUpperCase()}?${V()}`), 422, 'invalid_uuid');
  refusal(await s.post(`/api/library/files/${fileId}/open`, { expected_vault_id: upper, expected_version_id: versionId }), 422, 'invalid_uuid');
  // A well-formed id of another vault is a conflict, of no file a 404.
  refusal(await s.get(`/api/library/files?expected_vault_id=00000000-0000-4000-8000-000000000000`), 409, 'vault_mismatch');
  refusal(await s.get(`/api/library/files/00000000-0000-4000-8000-000000000000?${V()}`), 404, 'file_not_found');
});

test('integers are exact: no boolean, float or string coercion', async () => {
  const doc = s.addDocument();
  const link = (raw: string) => postRaw(`/api/library/files/${fileId}/paper-links`, `{"expected_vault_id":"${s.vaultId}","document_id":${raw}}`);
  for (const raw of ['true', `"${doc}"`, `${doc}.0`, `${doc}.5`, `${doc}e0`, '1E1', 'null', '[1]']) {
    refusal(await link(raw), 422, 'invalid_integer');
  }
  refusal(await link('0'), 422, 'out_of_range');
  refusal(await link('-1'), 422, 'out_of_range');
  refusal(await link('9007199254740993'), 422, 'invalid_integer');
  assert.is((await link(String(doc))).status, 201);
  for (const q of ['limit=1.0', 'limit=01', 'limit=+5', 'limit=true', 'limit=', 'limit=1e1', 'through_id=-1', 'before_id=x']) {
    const r = await s.get(`/api/library/files?${V()}&${q}${q.startsWith('before') ? '&through_id=5' : ''}`);
    assert.is(r.status, 422, q);
  }
  refusal(await s.get(`/api/library/files?${V()}&limit=0`), 422, 'out_of_range');
  refusal(await s.get(`/api/library/files?${V()}&limit=101`), 422, 'out_of_range');
  assert.is((await s.get(`/api/library/files?${V()}&limit=100`)).status, 200);
  assert.is((await s.get(`/api/library/files?${V()}&limit=1`)).status, 200);
  refusal(await s.importBytes('a.txt', 'x', '&document_id=1.0'), 422, 'invalid_integer');
});

test('extra JSON fields, duplicate keys, non-objects and bad JSON are refused', async () => {
  const open = `/api/library/files/${fileId}/open`;
  const base = `"expected_vault_id":"${s.vaultId}","expected_version_id":"${versionId}"`;
  refusal(await postRaw(open, `{${base},"path":"/etc"}`), 422, 'unknown_field');
  refusal(await postRaw(open, `{${base},"expected_vault_id":"${s.vaultId}"}`), 422, 'duplicate_key');
  refusal(await postRaw(open, `{${base},"\\u0065xpected_vault_id":"${s.vaultId}"}`), 422, 'duplicate_key');
  refusal(await postRaw(open, `[${base}]`), 422, 'invalid_json');
  refusal(await postRaw(open, '[1]'), 422, 'invalid_body');
  refusal(await postRaw(open, 'null'), 422, 'invalid_body');
  refusal(await postRaw(open, `{${base}`), 422, 'invalid_json');
  refusal(await postRaw(open, ''), 422, 'body_missing');
  refusal(await postRaw(open, `{"expected_vault_id":"${s.vaultId}"}`), 422, 'missing_field');
  refusal(await postRaw(open, `{${base}}`, { 'content-type': 'text/plain' }), 422, 'content_type_invalid');
  refusal(await postRaw(open, Buffer.concat([Buffer.from(`{${base},"x":"`), Buffer.from([0xff]), Buffer.from('"}')])), 422, 'invalid_json');
  assert.is((await postRaw(open, `{${base}}`)).status, 200);
});

test('JSON bodies are limited to 256 KiB; the import body to its own limit', async () => {
  const padding = 'x'.repeat(256 * 1024);
  const r = await postRaw('/api/library/vault', `{"parent_directory":"${padding}"}`);
  assert.is(r.status, 413);
  assert.is(r.json().detail.reason, 'body_too_large');
  const r2 = await postRaw('/api/library/vault', JSON.stringify({ parent_directory: 'x'.repeat(4097) }));
  refusal(r2, 422, 'invalid_string');
});

test('the import wants application/octet-stream', async () => {
  refusal(await s.importBytes('a.txt', 'hello', '', { 'content-type': 'application/json' }), 422, 'content_type_invalid');
  refusal(await s.importBytes('a.txt', 'hello', '', { 'content-type': 'multipart/form-data' }), 422, 'content_type_invalid');
});

test('list: before_id needs the through_id of the first page', async () => {
  refusal(await s.get(`/api/library/files?${V()}&before_id=3`), 422, 'through_id_required');
  refusal(await s.get(`/api/library/files?${V()}&q=`), 422, 'invalid_string');
});

test('no refusal names an absolute path', async () => {
  const r = await s.post('/api/library/files/' + fileId + '/open', { expected_vault_id: s.vaultId, expected_version_id: '00000000-0000-4000-8000-000000000000' });
  refusal(r, 409, 'version_mismatch', s.root);
  refusal(await s.post('/api/library/vault', { parent_directory: s.parent }), 409, 'vault_exists', s.parent);
});

// The schemas themselves (src/util/strict-schemas.ts): each refusal one reason and loc.
function refused(schema: v.GenericSchema, input: unknown, reason: string, loc: (string | number)[]): void {
  try {
    parseStrict(schema, input, ['body']);
  } catch (err) {
    const e = err as { status: number; reason: string; message: string; extra: { loc: unknown } };
    assert.is(e.status, 422);
    assert.is(e.reason, reason, JSON.stringify(input));
    assert.equal(e.extra.loc, loc);
    assert.ok(!e.message.includes('\u001f') && !e.message.includes('{name}'), e.message);
    return;
  }
  assert.unreachable(`accepted ${JSON.stringify(input)}`);
}

const U = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

test('schemas: uuid, exact integers and codepoint lengths', () => {
  const body = jsonBody({ id: uuid(), n: jsonInt(1, 9), name: text(1, 2) });
  assert.equal(parseStrict(body, { id: U, n: 9, name: '😀😀' }, ['body']), { id: U, n: 9, name: '😀😀' });
  refused(body, { id: U.toUpperCase(), n: 1, name: 'a' }, 'invalid_uuid', ['body', 'id']);
  refused(body, { id: U, n: 1.5, name: 'a' }, 'invalid_integer', ['body', 'n']);
  refused(body, { id: U, n: '1', name: 'a' }, 'invalid_integer', ['body', 'n']);
  refused(body, { id: U, n: 10, name: 'a' }, 'out_of_range', ['body', 'n']);
  refused(body, { id: U, n: 1, name: '😀😀😀' }, 'invalid_string', ['body', 'name']);
  refused(body, { id: U, n: 1, name: '' }, 'invalid_string', ['body', 'name']);
  assert.is(parseStrict(queryInt(0, 5), '5', ['query', 'limit']), 5);
  for (const raw of ['05', '+5', '-1', '5.0', '1e1', '']) {
    try {
      parseStrict(queryInt(0, 5), raw, ['query', 'limit']);
      assert.unreachable(raw);
    } catch (err) {
      assert.is((err as { reason: string }).reason, 'invalid_integer', raw);
    }
  }
});

test('schemas: closed objects refuse unknown keys first, then fields in order', () => {
  const body = jsonBody({ a: uuid(), b: jsonInt(1) });
  refused(body, [1], 'invalid_body', ['body']);
  refused(body, null, 'invalid_body', ['body']);
  refused(body, { a: 'x', b: 1, c: 1 }, 'unknown_field', ['body', 'c']);
  refused(body, { b: 'x' }, 'missing_field', ['body', 'a']);
  refused(body, { a: 'x' }, 'invalid_uuid', ['body', 'a']);
  // A nested object's issues come after its parent's.
  const outer = jsonBody({ inner: closedObject({ k: jsonInt(0) }, { notObject: say('bad_inner', 'inner is no object.'), unknown: say('unknown_field', 'Unknown {name}.'), missing: say('missing_field', '{name} is required.') }), n: jsonInt(1) });
  refused(outer, { inner: { k: 'x' }, n: 0 }, 'out_of_range', ['body', 'n']);
  refused(outer, { inner: { k: 'x' }, n: 1 }, 'invalid_integer', ['body', 'inner', 'k']);
  refused(outer, { inner: [], n: 1 }, 'bad_inner', ['body', 'inner']);
  // keysFirst: every key checked before any value.
  const keys = closedObject({ k: jsonInt(0), m: jsonInt(0) }, { notObject: say('bad', 'no object.'), unknown: say('unknown_field', 'Unknown {name}.'), missing: say('missing_field', '{name} is required.'), keysFirst: 'per_key' });
  refused(keys, { k: 'x' }, 'missing_field', ['body', 'm']);
  refused(keys, { k: 'x', m: 1, z: 1 }, 'unknown_field', ['body', 'z']);
  const whole = closedObject({ k: jsonInt(0) }, { notObject: say('bad', 'no object.'), unknown: say('bad_keys', 'Exactly k.'), missing: say('bad_keys', 'Exactly k.'), keysFirst: 'whole' });
  refused(whole, {}, 'bad_keys', ['body']);
});

test.run();
