import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rawRequest } from './_setup.js';
import { LIB_HEADERS, refusal } from './_library.js';
import { startEvidenceServer, type EvidenceServer } from './_evidence.js';

let s: EvidenceServer;

test.before(async () => {
  s = await startEvidenceServer({ limits: { projects: 4, membersPerProject: 2 } });
});
test.after(() => s.close());

test('the Library guard runs first: no header, foreign origin, repeated header are 403, still no-store', async () => {
  const path = `${s.P()}?${s.V}`;
  const noHeader = await s.t.request('GET', path, { headers: { origin: 'http://127.0.0.1:5173' } });
  refusal(noHeader, 403, 'library_header_refused');
  assert.is(noHeader.headers['cache-control'], 'no-store');
  assert.is((await s.t.request('GET', path, { headers: { origin: 'http://127.0.0.1:9', 'x-svc-library': '1' } })).status, 403);
  refusal(await s.t.request('GET', path, { headers: { origin: 'http://127.0.0.1:5173', 'x-svc-library': '2' } }), 403, 'library_header_refused');
  refusal(await s.t.request('POST', s.P(), { body: { expected_vault_id: s.vaultId, name: 'x' }, headers: { 'x-svc-library': '1' } }), 403, 'library_origin_refused');
  const ok = await s.call('GET', path);
  assert.is(ok.status, 200);
  assert.is(ok.headers['cache-control'], 'no-store');
});

test('every Evidence and answer response is no-store, a refusal of the token guard or an unoffered method included', async () => {
  const host = `127.0.0.1:${s.t.port}`;
  const paths = [`${s.P()}?${s.V}`, `${s.P('00000000-0000-4000-8000-000000000000')}/answers?${s.V}`];
  for (const path of paths) {
    const noToken = await rawRequest(s.t.port, { path, headers: { host, ...LIB_HEADERS } });
    refusal(noToken, 401, 'token_missing');
    assert.is(noToken.headers['cache-control'], 'no-store', `401 on ${path}`);
    const badHost = await rawRequest(s.t.port, { path, headers: { host: `example.org:${s.t.port}`, authorization: `Bearer ${s.t.token}`, ...LIB_HEADERS } });
    assert.is(badHost.status, 403);
    assert.is(badHost.headers['cache-control'], 'no-store', `403 on ${path}`);
    const put = await rawRequest(s.t.port, { method: 'PUT', path, headers: { host, authorization: `Bearer ${s.t.token}`, ...LIB_HEADERS } });
    assert.is(put.status, 405);
    assert.is(put.headers['cache-control'], 'no-store', `405 on ${path}`);
  }
});

test('create: name trimmed, 1 to 120 codepoints (astral characters count one), revision 1; bad input refused', async () => {
  const r = await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: '  Sleep and memory \n' });
  assert.is(r.status, 201);
  const body = r.json();
  assert.is(body.contract_version, 1);
  assert.is(body.vault_id, s.vaultId);
  assert.is(body.project.name, 'Sleep and memory');
  assert.is(body.project.revision, 1);
  assert.match(body.project.project_id, /^[0-9a-f-]{36}$/);
  const astral = '𝐀'.repeat(120); // 240 UTF-16 units
  assert.is((await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: astral })).status, 201);
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: '𝐀'.repeat(121) }), 422, 'name_invalid');
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: '   ' }), 422, 'name_invalid');
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: 'a\u0007b' }), 422, 'name_invalid');
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: 'x', extra: 1 }), 422, 'unknown_field');
  refusal(await s.call('POST', s.P(), '{"expected_vault_id":"' + s.vaultId + '","name":"a","name":"b"}'), 422, 'duplicate_key');
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId.toUpperCase(), name: 'x' }), 422, 'invalid_uuid');
  refusal(await s.call('POST', s.P(), { expected_vault_id: '00000000-0000-4000-8000-000000000000', name: 'x' }), 409, 'vault_mismatch');
  refusal(await s.call('POST', `${s.P()}?x=1`, { expected_vault_id: s.vaultId, name: 'x' }), 422, 'unknown_query_key');
});

test('list: ascending ids under a ceiling, after_id paging, total and count basis; limit 1 to 50', async () => {
  await s.project('third');
  const first = (await s.call('GET', `${s.P()}?${s.V}&limit=2`)).json();
  assert.is(first.items.length, 2);
  assert.is(first.has_more, true);
  assert.is(first.total, 3);
  assert.is(first.count_basis, 'rows_at_or_below_through_id');
  assert.ok(first.items[0].id < first.items[1].id);
  await s.project('fourth'); // arrives between pages: stays out under the ceiling
  const second = (await s.call('GET', `${s.P()}?${s.V}&limit=2&after_id=${first.next_after_id}&through_id=${first.through_id}`)).json();
  assert.equal(second.items.map((p: any) => p.name), ['third']);
  assert.is(second.has_more, false);
  assert.is(second.next_after_id, null);
  assert.is(second.total, 3);
  refusal(await s.call('GET', `${s.P()}?${s.V}&limit=51`), 422, 'out_of_range');
  refusal(await s.call('GET', `${s.P()}?${s.V}&limit=0`), 422, 'out_of_range');
  refusal(await s.call('GET', `${s.P()}?${s.V}&limit=2&limit=3`), 422, 'repeated_query_key');
  refusal(await s.call('GET', `${s.P()}?${s.V}&after_id=1.5`), 422, 'invalid_integer');
  refusal(await s.call('GET', s.P()), 422, 'missing_query_key');
});

test('the project limit refuses 413 and creates nothing', async () => {
  const before = (await s.call('GET', `${s.P()}?${s.V}`)).json().total;
  assert.is(before, 4);
  refusal(await s.call('POST', s.P(), { expected_vault_id: s.vaultId, name: 'one too many' }), 413, 'project_limit');
  assert.is((await s.call('GET', `${s.P()}?${s.V}`)).json().total, 4);
});

test('rename: compare-and-swap on expected_revision; the same name is a no-op; no automatic retry', async () => {
  const p = (await s.call('GET', `${s.P()}?${s.V}&limit=1`)).json().items[0];
  const path = `${s.P(p.project_id)}`;
  const r = await s.call('PATCH', path, { expected_vault_id: s.vaultId, expected_revision: 1, name: 'Renamed' });
  assert.is(r.status, 200);
  assert.is(r.json().project.revision, 2);
  assert.is(r.json().changed, true);
  const stale = await s.call('PATCH', path, { expected_vault_id: s.vaultId, expected_revision: 1, name: 'Lost update' });
  refusal(stale, 409, 'revision_conflict');
  assert.is(stale.json().detail.revision, 2);
  const same = (await s.call('PATCH', path, { expected_vault_id: s.vaultId, expected_revision: 2, name: ' Renamed ' })).json();
  assert.is(same.changed, false);
  assert.is(same.project.revision, 2);
  assert.is(same.project.updated_at_utc, r.json().project.updated_at_utc);
  refusal(await s.call('PATCH', path, { expected_vault_id: s.vaultId, expected_revision: '2', name: 'x' }), 422, 'invalid_integer');
  refusal(await s.call('PATCH', path, { expected_vault_id: s.vaultId, expected_revision: true, name: 'x' }), 422, 'invalid_integer');
  refusal(await s.call('PATCH', path, '{"expected_vault_id":"' + s.vaultId + '","expected_revision":2.0,"name":"x"}'), 422, 'invalid_integer');
  refusal(await s.call('PATCH', s.P('00000000-0000-4000-8000-000000000000'), { expected_vault_id: s.vaultId, expected_revision: 1, name: 'x' }), 404, 'project_not_found');
  const shown = (await s.call('GET', `${path}?${s.V}`)).json();
  assert.equal(shown.counts, { files: 0, notes: 0 });
  assert.is(shown.project.name, 'Renamed');
});

test('memberships: add pins an exact version; repeated add and absent remove are true no-ops; remove keeps the file', async () => {
  const p = (await s.call('GET', `${s.P()}?${s.V}&limit=1&after_id=1`)).json().items[0];
  const id = p.project_id;
  const a = await s.file('a.txt', 'alpha text\n');
  const b = await s.file('b.md', '# beta\n');
  const c = await s.file('c.txt', 'gamma\n');
  const add = (rev: number, f: typeof a, version = f.version_id) =>
    s.call('POST', `${s.P(id)}/files`, { expected_vault_id: s.vaultId, expected_revision: rev, file_id: f.file_id, version_id: version });
  const del = (rev: number, f: typeof a) => s.call('DELETE', `${s.P(id)}/files/${f.file_id}?${s.V}&expected_revision=${rev}&version_id=${f.version_id}`);
  const rev0 = p.revision;
  const first = await add(rev0, a);
  assert.is(first.status, 201);
  assert.is(first.json().changed, true);
  assert.is(first.json().project.revision, rev0 + 1);
  const again = await add(rev0 + 1, a);
  assert.is(again.status, 200);
  assert.is(again.json().changed, false);
  assert.is(again.json().project.revision, rev0 + 1);
  assert.is(again.json().project.updated_at_utc, first.json().project.updated_at_utc);
  refusal(await add(rev0, b), 409, 'revision_conflict');
  refusal(await add(rev0 + 1, b, c.version_id), 409, 'version_mismatch');
  refusal(await add(rev0 + 1, { ...b, file_id: '00000000-0000-4000-8000-000000000000' }), 404, 'file_not_found');
  assert.is((await add(rev0 + 1, b)).status, 201);
  refusal(await add(rev0 + 2, c), 413, 'member_limit');
  const list = (await s.call('GET', `${s.P(id)}/files?${s.V}`)).json();
  assert.is(list.project_revision, rev0 + 2);
  assert.equal(list.items.map((m: any) => m.file_id), [a.file_id, b.file_id]);
  assert.is(list.items[0].availability, 'not_checked');
  assert.is(list.items[0].sha256, a.sha256);
  assert.is(list.total, 2);
  const absent = await del(rev0 + 2, c);
  assert.is(absent.status, 200);
  assert.is(absent.json().changed, false);
  assert.is(absent.json().project.revision, rev0 + 2);
  const removed = await del(rev0 + 2, a);
  assert.is(removed.json().changed, true);
  assert.is(removed.json().project.revision, rev0 + 3);
  refusal(await del(rev0 + 2, b), 409, 'revision_conflict');
  refusal(await s.call('DELETE', `${s.P(id)}/files/${a.file_id}?${s.V}&expected_revision=${rev0 + 3}`), 422, 'missing_query_key');
  // The file itself stays in the Library.
  assert.is((await s.get(`/api/library/files/${a.file_id}?${s.V}`)).status, 200);
  const after = (await s.call('GET', `${s.P(id)}/files?${s.V}`)).json();
  assert.equal(after.items.map((m: any) => m.file_id), [b.file_id]);
});

test.run();
