/**
 * Deep JSON: a body nested 65, 10,000 or 100,000 deep is refused by the one
 * body reader with 422 (loc ["body"], input null, ctx.max_depth 64) before
 * any route sees it, and stores nothing; 64 deep is still read. Every route
 * that takes a body is fuzzed with 10,000 and 100,000 and never answers 5xx.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { ROUTES } from '../server/routes/index.js';
import { MAX_JSON_DEPTH, parseStrictJson, StrictJsonError } from '../src/util/json-strict.js';
import { plantCanary, type Canary } from './_hostile.js';
import { startLibraryServer } from './_library.js';
import { startTestServer, type RawResponse, type TestServer } from './_setup.js';

const DEPTHS = [65, 10_000, 100_000];
/** `depth` arrays or objects inside one another, `inner` at the bottom. */
const arrays = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const objects = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const SHAPES = { arrays, objects };

const TOO_DEEP = { loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_too_deep', input: null, ctx: { max_depth: MAX_JSON_DEPTH } };

let t: TestServer;
let canary: Canary;

test.before(async () => {
  t = await startTestServer();
  canary = plantCanary(t.dirs.root);
});
test.after(() => t.close());

function tooDeep(r: RawResponse, what: string): void {
  assert.is(r.status, 422, `${what}: ${r.status} ${r.text.slice(0, 200)}`);
  assert.equal(r.json().detail, [TOO_DEEP], what);
}

const count = (table: string) => (t.ctx.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);

test('parseStrictJson: 64 deep is read, 65 is refused as too_deep (arrays and objects); brackets inside strings do not count', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    assert.ok(parseStrictJson(shape(MAX_JSON_DEPTH)) !== undefined, name);
    try {
      parseStrictJson(shape(MAX_JSON_DEPTH + 1));
      assert.unreachable(`${name} 65 deep was read`);
    } catch (err) {
      assert.instance(err, StrictJsonError);
      assert.is((err as StrictJsonError).kind, 'too_deep');
    }
  }
  const quoted = JSON.stringify({ a: `\\"${'['.repeat(100_000)}\\`, b: '{'.repeat(1000) });
  assert.is((parseStrictJson(quoted) as { a: string }).a.length, 100_003);
  assert.is((parseStrictJson(`[${JSON.stringify('"]]]')}, ${arrays(MAX_JSON_DEPTH - 1)}]`) as unknown[]).length, 2);
});

test('explorer search: nested 65, 10,000 and 100,000 deep is 422 json_too_deep, not 500', async () => {
  for (const depth of DEPTHS) {
    for (const [name, shape] of Object.entries(SHAPES)) {
      tooDeep(await t.request('POST', '/api/explorer/search', { body: `{"query":${shape(depth)}}` }), `query ${name} ${depth}`);
      tooDeep(await t.request('POST', '/api/explorer/search', { body: shape(depth) }), `body ${name} ${depth}`);
    }
  }
  canary.check();
});

test('a settings write, a routine, a configuration, a profile, a reference export: refused whole, nothing stored', async () => {
  const before = (await t.request('GET', '/api/settings/ai')).json();
  for (const depth of DEPTHS) {
    for (const [name, shape] of Object.entries(SHAPES)) {
      const what = `${name} ${depth}`;
      tooDeep(await t.request('PUT', '/api/settings/ai', { body: `{"settings":{"model":"stolen","extra":${shape(depth)}}}` }), `settings ${what}`);
      tooDeep(
        await t.request('POST', '/api/routines', { body: `{"name":"deep","schedule_cron":"@daily","parameters":{"query":"x","repositories":["crossref"]},"storage_settings":{"a":${shape(depth)}}}` }),
        `routine ${what}`,
      );
      tooDeep(await t.request('POST', '/api/configurations', { body: `{"name":"deep","config_type":"dive","parameters":{"repository":"crossref","query":${shape(depth)}}}` }), `configuration ${what}`);
      tooDeep(await t.request('POST', '/api/profiles', { body: `{"name":"deep","aliases":${shape(depth)}}` }), `profile ${what}`);
      tooDeep(await t.request('POST', '/api/export/references', { body: `{"document_ids":${shape(depth)},"format":"csv"}` }), `export ${what}`);
    }
  }
  assert.equal((await t.request('GET', '/api/settings/ai')).json(), before);
  assert.equal([count('routines'), count('saved_configurations'), count('watch_profiles')], [0, 0, 0]);
  canary.check();
});

test('64 deep is still read where the body is valid: a routine whose storage_settings nest 63 levels is created and reads back', async () => {
  const body = `{"name":"deep enough","schedule_cron":"@daily","parameters":{"query":"x","repositories":["crossref"]},"storage_settings":${objects(MAX_JSON_DEPTH - 1)}}`;
  const created = await t.request('POST', '/api/routines', { body });
  assert.is(created.status, 201, created.text);
  const read = await t.request('GET', `/api/routines/${created.json().id}`);
  assert.is(read.status, 200);
  let level = read.json().storage_settings;
  for (let i = 1; i < MAX_JSON_DEPTH - 1; i++) level = level.a;
  assert.equal(level, { a: 1 });
  const search = await t.request('POST', '/api/explorer/search', { body: { query: `soil ${'['.repeat(200)} carbon` } });
  assert.not.equal(search.json().detail?.[0]?.type, 'json_too_deep', 'brackets inside a string are text');
  assert.is(search.status, 200, search.text);
});

test('configuration import: a file nested 100,000 deep is 422, nothing imported', async () => {
  const boundary = 'svcboundary';
  const file = `{"configurations":[{"name":"deep","config_type":"dive","parameters":${objects(100_000)}}]}`;
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="deep.json"\r\nContent-Type: application/json\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  const r = await t.request('POST', '/api/configurations/import', { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  assert.is(r.status, 422, r.text.slice(0, 300));
  assert.match(r.json().detail[0].msg, /nested deeper than 64/);
  assert.is(count('saved_configurations'), 0);
});

test('a Library route (strict bodies): 422 {reason json_too_deep, loc ["body"], max_depth 64}, no vault made', async () => {
  const lib = await startLibraryServer({ vault: false });
  try {
    const libCanary = plantCanary(lib.t.dirs.root);
    for (const depth of DEPTHS) {
      const r = await lib.post('/api/library/vault', `{"parent_directory":${JSON.stringify(lib.parent)},"x":${arrays(depth)}}`);
      assert.is(r.status, 422, r.text.slice(0, 200));
      assert.equal(r.json().detail, { reason: 'json_too_deep', message: `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, loc: ['body'], max_depth: MAX_JSON_DEPTH });
    }
    assert.equal(fs.readdirSync(lib.parent), []);
    libCanary.check();
  } finally {
    await lib.close();
  }
});

test('fuzz: every route that can take a body, sent 10,000 and 100,000 deep under likely field names, never answers 5xx and the server goes on', async () => {
  const uuid = '11111111-1111-4111-8111-111111111111';
  // A deep value where a route's schema looks (the refusal that echoed it back was the 500) and where none does.
  const bodies = [arrays(10_000), objects(10_000), ...['a', 'query', 'name', 'parameters', 'settings'].map((key) => `{"${key}":${arrays(100_000)}}`)];
  const refused = new Set<string>();
  for (const r of ROUTES.filter((x) => x.method !== 'GET' && x.method !== 'DELETE')) {
    // Ids that name nothing: a route that ignores its body must not start a run.
    const path = r.path.replace(/\{([a-z_]+)\}/g, (_, param: string) => (/^(file|project|note|answer|request)_id$/.test(param) ? uuid : '999999'));
    for (const body of bodies) {
      const answer = await t.request(r.method, path, { body });
      assert.ok(answer.status < 500, `${r.method} ${r.path} (${body.slice(0, 12)}…): ${answer.status} ${answer.text.slice(0, 200)}`);
      if (answer.status === 422 && answer.json().detail?.[0]?.type === 'json_too_deep') refused.add(`${r.method} ${r.path}`);
    }
  }
  for (const expected of ['POST /api/explorer/search', 'PUT /api/settings/ai', 'POST /api/routines', 'POST /api/search/dive', 'POST /api/admin/factory-reset']) assert.ok(refused.has(expected), expected);
  assert.ok(refused.size > 50, `only ${refused.size} routes refused the depth`);
  assert.not.ok(t.logLines.some((l) => /unexpected error/.test(l)), 'nothing unexpected was logged');
  assert.is((await t.request('GET', '/api/health')).status, 200);
  canary.check();
});

test.run();
