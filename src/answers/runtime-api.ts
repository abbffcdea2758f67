/**
 * The API lanes: one streamed request of the connection's family (OpenAI
 * chat completions, Anthropic messages, Gemini generateContent) with the
 * system asset and one user message — no tool declarations, no history —
 * through the guarded fetch. Requested effort is not supported by APIs.
 */
import type { Context } from '../context.js';
import { apiBaseUrl } from '../assistant/connections.js';
import { streamChat } from '../providers/index.js';
import { findApiProvider } from '../providers/provider-catalog.js';
import { guardedFetch } from './guarded-fetch.js';
import { LaneError, type Lane, type LaneEvent } from './lane.js';

export interface ApiRoute {
  provider: string;
  family: string;
  baseUrl: string;
  key: string;
}

/** Where the API connection is reached and its key (never leaves the service). */
export function apiRoute(ctx: Context, provider: string): ApiRoute {
  const p = findApiProvider(provider);
  if (!p) throw new LaneError('connection_unavailable', 'The provider is not offered.');
  const key = ctx.credentials.reveal(p.credential);
  if (!key) throw new LaneError('connection_unavailable', `No ${p.label} key is stored.`);
  return { provider: p.id, family: p.family, baseUrl: apiBaseUrl(ctx, p), key };
}

export function apiLane(route: ApiRoute): Lane {
  return async function* (job): AsyncGenerator<LaneEvent> {
    const p = findApiProvider(route.provider)!;
    const fetch = guardedFetch({ connectMs: job.limits.connectMs, inactivityMs: job.limits.inactivityMs, bodyBytes: job.limits.apiBodyBytes });
    yield { type: 'progress', stage: 'request_sent' };
    const events = streamChat(
      p.family,
      { baseUrl: route.baseUrl, key: route.key, model: job.payload.choices.model!, system: job.system, messages: [{ role: 'user', content: job.user }], maxOutputTokens: 16_000, signal: job.signal, fetch },
      p.label,
    );
    let done = false;
    for await (const e of events) {
      if (e.type === 'text') yield { type: 'text', text: e.text };
      else if (e.type === 'model') yield { type: 'model', model: e.model, source: e.source };
      else if (e.type === 'usage') yield { type: 'usage', inputTokens: e.inputTokens, outputTokens: e.outputTokens, source: 'api_response_usage' };
      else if (e.type === 'tool_call') throw new LaneError('protocol_violation', 'The model asked for a tool; none was offered.');
      else if (e.type === 'done') done = e.stopReason !== null;
    }
    // An explicit completion is a stop reason from the family; a stream that just ends is not one.
    if (done) yield { type: 'done', stopReason: 'stop' };
  };
}
