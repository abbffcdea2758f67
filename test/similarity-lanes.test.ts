import http from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { backfillSettled } from '../src/similarity/backfill.js';
import { startTestServer, waitFor, type TestServer } from './_setup.js';
import { seedDocuments, TOPICS } from './_similarity.js';

interface Seen {
  path: string;
  auth: string | undefined;
  body: any;
}

/** A loopback embeddings server speaking the OpenAI or Ollama wire format. */
async function embeddingServer(handler: (seen: Seen, res: http.ServerResponse) => void | Promise<void>) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const s = { path: req.url ?? '', auth: req.headers.authorization, body: raw ? JSON.parse(raw) : null };
      seen.push(s);
      void handler(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const vectorFor = (text: string) => [text.length % 7, 1, text.includes('coral') ? 5 : 0, 2];
const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** The OpenAI answer shape, data deliberately out of order (clients must sort by index). */
const openaiAnswer = (body: any) => ({
  object: 'list',
  data: (body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text) })).reverse(),
  model: body.model,
  usage: { prompt_tokens: 11 * body.input.length, total_tokens: 11 * body.input.length },
});

let t: TestServer;
test.before(async () => {
  t = await startTestServer({ context: { tuning: { sourceRetryBaseMs: 5 } } });
  seedDocuments(t.ctx.db, TOPICS);
});
test.after(async () => {
  await t.close();
});

test('OpenAI-compatible lane: wire format, bearer key, answers sorted by index and normalised; usage tokens recorded', async () => {
  const api = await embeddingServer((s, res) => json(res, 200, openaiAnswer(s.body)));
  try {
    t.ctx.credentials.set('openai_api_key', 'sk-test-secret-123');
    const put = await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'openai', base_url: `${api.url}/v1`, batch_size: 3 } } });
    assert.is(put.status, 200);
    assert.is(put.json().settings.model, '');
    const probe = (await t.request('POST', '/api/embeddings/probe', { body: { settings: null } })).json();
    assert.equal([probe.ok, probe.model, probe.dimension, probe.kind], [true, 'openai/text-embedding-3-small', 4, 'semantic']);
    assert.is(api.seen[0]!.path, '/v1/embeddings');
    assert.is(api.seen[0]!.auth, 'Bearer sk-test-secret-123');
    assert.equal(Object.keys(api.seen[0]!.body).sort(), ['encoding_format', 'input', 'model']);
    assert.equal([api.seen[0]!.body.model, api.seen[0]!.body.encoding_format], ['text-embedding-3-small', 'float']);

    const estimate = (await t.request('GET', '/api/embeddings/estimate')).json();
    assert.equal([estimate.documents, estimate.price_per_million_tokens, estimate.cost], [TOPICS.length, 0.02, 'priced']);
    assert.ok(estimate.cost_usd > 0);

    await t.request('POST', '/api/embeddings/backfill');
    await backfillSettled(t.ctx);
    const s = (await t.request('GET', '/api/embeddings/status')).json();
    assert.equal([s.embedded, s.model, s.run.state, s.run.tokens], [TOPICS.length, 'openai/text-embedding-3-small', 'completed', 11 * TOPICS.length]);
    assert.equal(api.seen.slice(1).map((x) => x.body.input.length), [3, 3, 1], 'batches of batch_size');
    const stored = t.ctx.db.prepare(`SELECT vector FROM embedding_vectors WHERE model = 'openai/text-embedding-3-small' ORDER BY document_id LIMIT 1`).get() as { vector: Buffer };
    const v = new Float32Array(new Uint8Array(stored.vector).buffer);
    const expected = vectorFor(`${TOPICS[0]!.title}\n\n${TOPICS[0]!.abstract}`);
    const norm = Math.hypot(...expected);
    assert.ok(v.every((x, i) => Math.abs(x - expected[i]! / norm) < 1e-6), 'the vector of the first input, not of the reversed list');
  } finally {
    await api.close();
  }
});

test('OpenAI lane failures: a rejected key is reported by status only, never the provider text; 429 is retried', async () => {
  let calls = 0;
  const api = await embeddingServer((s, res) => {
    calls++;
    if (s.auth === 'Bearer sk-wrong-key-999') return json(res, 401, { error: { message: 'Incorrect API key provided: sk-wrong-key-999', type: 'invalid_request_error' } });
    if (calls === 1) return json(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '0' });
    json(res, 200, openaiAnswer(s.body));
  });
  try {
    t.ctx.credentials.set('openai_api_key', 'sk-test-secret-123');
    const retried = (await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'openai', base_url: api.url } } })).json();
    assert.is(retried.ok, true);
    assert.is(calls, 2, 'one 429, then success');
    t.ctx.credentials.set('openai_api_key', 'sk-wrong-key-999');
    const r = await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'openai', base_url: api.url } } });
    assert.is(r.status, 200);
    const answer = r.json();
    assert.equal([answer.ok, answer.reason, answer.upstream_status], [false, 'embedding_key_rejected', 401]);
    assert.not.match(r.text, /sk-wrong-key-999/);
    assert.not.match(r.text, /Incorrect API key/);
  } finally {
    await api.close();
  }
});

test('OpenAI lane with the default endpoint and no key: refused before any request', async () => {
  t.ctx.credentials.remove('openai_api_key');
  const answer = (await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'openai', base_url: '' } } })).json();
  assert.equal([answer.ok, answer.reason], [false, 'embedding_key_missing']);
  assert.match(answer.message, /openai_api_key/);
});

test('Ollama lane: POST /api/embed {model, input}; an unknown model is reported; probe settings are not saved', async () => {
  const ollama = await embeddingServer((s, res) => {
    if (s.body.model !== 'nomic-embed-text') return json(res, 404, { error: `model "${s.body.model}" not found, try pulling it first` });
    json(res, 200, { model: s.body.model, embeddings: (s.body.input as string[]).map(vectorFor), total_duration: 1, prompt_eval_count: 5 });
  });
  try {
    const before = (await t.request('GET', '/api/settings/embeddings')).json().settings;
    const ok = (await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'ollama', base_url: ollama.url } } })).json();
    assert.equal([ok.ok, ok.model, ok.dimension, ok.saved], [true, 'ollama/nomic-embed-text', 4, false]);
    assert.equal([ollama.seen[0]!.path, ollama.seen[0]!.body.model, ollama.seen[0]!.auth], ['/api/embed', 'nomic-embed-text', undefined]);
    assert.ok(Array.isArray(ollama.seen[0]!.body.input));
    assert.equal((await t.request('GET', '/api/settings/embeddings')).json().settings, before, 'a probe stores nothing');
    const missing = (await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'ollama', model: 'nope', base_url: ollama.url } } })).json();
    assert.equal([missing.ok, missing.reason, missing.upstream_status], [false, 'embedding_model_missing', 404]);
    const refused = await t.request('POST', '/api/embeddings/probe', { body: { settings: { provider: 'anthropic' } } });
    assert.is(refused.status, 422);
  } finally {
    await ollama.close();
  }
});

test('cancel stops after the batch in flight; written vectors are kept; cancel with nothing running says so', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let requests = 0;
  const ollama = await embeddingServer(async (s, res) => {
    requests++;
    if (requests === 1) await gate;
    json(res, 200, { model: s.body.model, embeddings: (s.body.input as string[]).map(vectorFor) });
  });
  try {
    await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'ollama', base_url: ollama.url, batch_size: 2 } } });
    const started = await t.request('POST', '/api/embeddings/backfill');
    assert.is(started.status, 202);
    await waitFor(() => requests === 1, 5000, 'the first batch in flight');
    const again = await t.request('POST', '/api/embeddings/backfill');
    assert.is(again.status, 409, 'a second start is the conflict the spec gives for a job already running');
    assert.equal([again.json().detail.conflict, again.json().detail.run_id, again.json().detail.running_in.here], ['backfill_already_running', started.json().run.id, true]);
    const cancel = (await t.request('POST', '/api/embeddings/backfill/cancel')).json();
    assert.is(cancel.cancel_requested, true);
    release();
    await backfillSettled(t.ctx);
    const s = (await t.request('GET', '/api/embeddings/status')).json();
    assert.equal([s.run.state, s.run.embedded, s.embedded], ['cancelled', 2, 2], 'the batch in flight was written, no further batch');
    assert.is(requests, 1);
    const idle = (await t.request('POST', '/api/embeddings/backfill/cancel')).json();
    assert.equal([idle.cancel_requested, idle.run_id], [false, null]);
  } finally {
    release();
    await ollama.close();
  }
});

test.run();
