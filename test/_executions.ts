/** Helpers for execution tests: a server whose sources point at loopback stubs, and waiting for runs. */
import type { Tuning } from '../src/context.js';
import { startTestServer, waitFor, type TestServer } from './_setup.js';

export async function serverWithSources(urls: Record<string, string>, env: Record<string, string> = {}, tuning: Partial<Tuning> = {}): Promise<TestServer> {
  const sourceEnv: Record<string, string> = {};
  for (const [id, url] of Object.entries(urls)) sourceEnv[`SVC_SOURCE_${id.toUpperCase()}_URL`] = url;
  return startTestServer({
    env: { ...sourceEnv, ...env },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 3000, executionHeartbeatMs: 50, ...tuning } },
  });
}

/** Wait until the execution is no longer running; answers its detail. */
export async function finished(t: TestServer, id: number, timeoutMs = 15_000): Promise<any> {
  return waitFor(
    async () => {
      const detail = (await t.request('GET', `/api/executions/${id}`)).json();
      return detail.status !== 'running' ? detail : undefined;
    },
    timeoutMs,
    `execution ${id} to finish`,
  );
}

export async function dive(t: TestServer, body: Record<string, unknown>): Promise<number> {
  const r = await t.request('POST', '/api/search/dive', { body });
  if (r.status !== 202) throw new Error(`dive answered ${r.status}: ${r.text}`);
  return r.json().id;
}

/** The AI settings of a test server (PUT /api/settings/ai), asserted accepted. */
export async function putAiSettings(t: TestServer, values: Record<string, unknown>): Promise<void> {
  const r = await t.request('PUT', '/api/settings/ai', { body: { settings: values } });
  if (r.status !== 200) throw new Error(`PUT /api/settings/ai: ${r.status} ${r.text}`);
}

/** Store the OpenAI key the summary lane reads, asserted accepted. */
export async function storeOpenAiKey(t: TestServer, key: string): Promise<void> {
  const r = await t.request('PUT', '/api/credentials/openai_api_key', { body: { value: key } });
  if (r.status >= 300) throw new Error(`PUT /api/credentials/openai_api_key: ${r.status}`);
}

/** Summaries on, the loopback model's provider and key in place (the lane can write). */
export async function aiReady(t: TestServer, key: string): Promise<void> {
  await putAiSettings(t, { provider: 'openai', model: 'gpt-asked', summaries_enabled: true, max_output_tokens: 512 });
  await storeOpenAiKey(t, key);
}
