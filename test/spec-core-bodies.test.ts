/**
 * Spec 1 request shapes over real HTTP, for the delivery, analytics,
 * watchdog, lifecycle, profile, similarity, link, explorer and reading-queue
 * routes: what a body must be before its fields are read.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { newRoutine } from './_delivery.js';

let t: TestServer;
let docId: number;
let routine: number;

test.before(async () => {
  t = await startTestServer();
  [docId] = seed(t.ctx, [makeRecord(1, { title: 'A paper on graphs' })]);
  routine = await newRoutine(t);
});
test.after(async () => t.close());

test('a JSON array is not a request body: 422 at body, nothing done (every field of these bodies is optional, so [] used to pass as {})', async () => {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: 'Ada Lovelace' } })).json().id;
  const target = (await t.request('POST', `/api/routines/${routine}/delivery-targets`, { body: { channel: 'email' } })).json().id;
  await t.request('POST', '/api/reading-queue', { body: { document_id: docId } });
  const routes: [string, string][] = [
    ['POST', '/api/lifecycle/check'],
    ['POST', '/api/lifecycle/for-documents'],
    ['POST', '/api/watchdog/mute'],
    ['POST', '/api/watchdog/unmute'],
    ['POST', '/api/profiles'],
    ['PUT', `/api/profiles/${profile}`],
    ['POST', '/api/profiles/import'],
    ['POST', '/api/profiles/matches/for-documents'],
    ['POST', '/api/embeddings/probe'],
    ['PUT', '/api/settings/embeddings'],
    ['POST', '/api/links/for-documents'],
    ['POST', '/api/links/collapse-preview'],
    ['POST', '/api/explorer/search'],
    ['POST', '/api/explorer/facets'],
    ['POST', '/api/explorer/export'],
    ['POST', '/api/reading-queue'],
    ['PUT', `/api/reading-queue/${docId}`],
    ['POST', `/api/routines/${routine}/delivery-targets`],
    ['PUT', `/api/routines/${routine}/delivery-targets/${target}`],
  ];
  for (const [method, path] of routes) {
    const r = await t.request(method, path, { body: '[]' });
    assert.is(r.status, 422, `${method} ${path}: ${r.text.slice(0, 200)}`);
    const detail = r.json().detail;
    assert.ok(Array.isArray(detail), `${method} ${path}: validation shape`);
    assert.equal(detail[0].loc, ['body'], `${method} ${path}: ${JSON.stringify(detail)}`);
    assert.is(detail[0].type, 'object_type', `${method} ${path}`);
    assert.ok(['loc', 'msg', 'type', 'input', 'ctx'].every((k) => k in detail[0]), `${method} ${path}: the whole 422 item shape`);
  }
  const lifecycle = (await t.request('GET', '/api/lifecycle')).json();
  assert.is(lifecycle.check.last, null, 'no lifecycle check was started by []');
  const imported = (await t.request('GET', '/api/profiles')).json();
  assert.is(imported.total, 1, 'no profile imported by []');
});

test.run();
