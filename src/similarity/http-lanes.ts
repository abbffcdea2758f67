/**
 * The two network lanes: an OpenAI-compatible embeddings API and Ollama. Both
 * answer L2-normalised float32 vectors in input order. Failures are SvcErrors
 * that name the HTTP status only: a provider's error text can echo part of a
 * key, so it is never passed on.
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { sleep } from '../util/sleep.js';
import { normalise } from './lexical.js';

export interface HttpLaneConfig {
  provider: 'openai' | 'ollama';
  baseUrl: string;
  model: string;
  key?: string;
}

export interface EmbedAnswer {
  vectors: Float32Array[];
  tokens: number;
}

const MAX_ATTEMPTS = 3;

function laneFailure(config: HttpLaneConfig, status: number | null, what: string): SvcError {
  const who = config.provider === 'openai' ? 'The embeddings API' : 'Ollama';
  if (status === 401 || status === 403) {
    return new SvcError(502, 'embedding_key_rejected', `${who} refused the key (HTTP ${status}); check the openai_api_key credential.`, { upstream_status: status });
  }
  if (status === 404) {
    return new SvcError(502, 'embedding_model_missing', `${who} does not know model "${config.model}" or has no embeddings endpoint (HTTP 404).`, { upstream_status: status });
  }
  return new SvcError(502, 'embedding_upstream_failed', `${who} ${what}.`, { upstream_status: status });
}

async function postJson(ctx: Context, config: HttpLaneConfig, url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.key) headers.authorization = `Bearer ${config.key}`;
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(ctx.tuning.sourceTimeoutMs * 2);
    let res: Response;
    try {
      res = await ctx.fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      if (signal?.aborted) throw err;
      if (attempt < MAX_ATTEMPTS) {
        await sleep(ctx.tuning.sourceRetryBaseMs * attempt);
        continue;
      }
      throw laneFailure(config, null, `could not be reached (${(err as Error).name})`);
    }
    if (res.ok) {
      try {
        return await res.json();
      } catch {
        throw laneFailure(config, res.status, 'answered something that is not JSON');
      }
    }
    await res.body?.cancel().catch(() => {});
    const retryable = res.status === 429 || res.status >= 500;
    if (retryable && attempt < MAX_ATTEMPTS) {
      const after = Number(res.headers.get('retry-after'));
      const wait = Number.isFinite(after) && after > 0 ? Math.min(after * 1000, ctx.tuning.sourceMaxRetryAfterMs) : ctx.tuning.sourceRetryBaseMs * attempt;
      await sleep(wait);
      continue;
    }
    throw laneFailure(config, res.status, `answered HTTP ${res.status}`);
  }
}

function toVector(config: HttpLaneConfig, raw: unknown): Float32Array {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw laneFailure(config, 200, 'answered a malformed embedding');
  }
  return normalise(Float32Array.from(raw as number[]));
}

function checkShape(config: HttpLaneConfig, vectors: Float32Array[], expected: number): Float32Array[] {
  if (vectors.length !== expected) throw laneFailure(config, 200, `answered ${vectors.length} embeddings for ${expected} inputs`);
  const dimension = vectors[0]?.length;
  if (vectors.some((v) => v.length !== dimension)) throw laneFailure(config, 200, 'answered embeddings of different dimensions');
  return vectors;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** POST {base}/embeddings with {model, input, encoding_format: float}. */
export async function embedOpenAI(ctx: Context, config: HttpLaneConfig, texts: string[], signal?: AbortSignal): Promise<EmbedAnswer> {
  const answer = (await postJson(ctx, config, `${trimSlash(config.baseUrl)}/embeddings`, { model: config.model, input: texts, encoding_format: 'float' }, signal)) as {
    data?: { embedding?: unknown; index?: number }[];
    usage?: { prompt_tokens?: number; total_tokens?: number };
  };
  if (!answer || !Array.isArray(answer.data)) throw laneFailure(config, 200, 'answered without a data list');
  const ordered = [...answer.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const vectors = checkShape(config, ordered.map((d) => toVector(config, d.embedding)), texts.length);
  const tokens = answer.usage?.prompt_tokens ?? answer.usage?.total_tokens ?? texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  return { vectors, tokens };
}

/** POST {base}/api/embed with {model, input} (Ollama 0.3 and later). */
export async function embedOllama(ctx: Context, config: HttpLaneConfig, texts: string[], signal?: AbortSignal): Promise<EmbedAnswer> {
  const answer = (await postJson(ctx, config, `${trimSlash(config.baseUrl)}/api/embed`, { model: config.model, input: texts }, signal)) as {
    embeddings?: unknown[];
    prompt_eval_count?: number;
  };
  if (!answer || !Array.isArray(answer.embeddings)) throw laneFailure(config, 200, 'answered without an embeddings list');
  const vectors = checkShape(config, answer.embeddings.map((e) => toVector(config, e)), texts.length);
  return { vectors, tokens: answer.prompt_eval_count ?? texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0) };
}
