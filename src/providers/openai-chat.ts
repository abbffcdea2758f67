/**
 * The OpenAI-compatible chat family: POST {base}/chat/completions with
 * stream=true (OpenAI, Mistral, Groq, OpenRouter, DeepSeek, xAI and local
 * servers speak it). Models come from GET {base}/models.
 */
import { call, callJson, joinUrl, modelReporter } from './http.js';
import { frameJson, readSse } from './sse-reader.js';
import type { ChatRequest, ModelsRequest, ProviderEvent, Turn } from './types.js';

function wireMessages(system: string | undefined, turns: Turn[]) {
  const out: Record<string, unknown>[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const turn of turns) {
    if (turn.role === 'tool') {
      for (const r of turn.results) out.push({ role: 'tool', tool_call_id: r.callId, content: JSON.stringify(r.output) });
    } else if ('toolCalls' in turn) {
      out.push({
        role: 'assistant',
        content: turn.content || null,
        tool_calls: turn.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })),
      });
    } else out.push({ role: turn.role, content: turn.content });
  }
  return out;
}

export async function* streamOpenAiChat(req: ChatRequest, provider = 'The provider'): AsyncGenerator<ProviderEvent> {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: wireMessages(req.system, req.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.maxOutputTokens) body.max_tokens = req.maxOutputTokens;
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  }
  const res = await call({ provider, url: joinUrl(req.baseUrl, 'chat/completions'), headers: { authorization: `Bearer ${req.key}` }, body, secrets: [req.key], fetch: req.fetch, signal: req.signal });
  const report = modelReporter();
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let stopReason: string | null = null;
  for await (const frame of readSse(res.body!, req.signal)) {
    if (frame.data.trim() === '[DONE]') break;
    const chunk = frameJson(frame.data);
    if (!chunk) continue;
    const model = report(chunk.model);
    if (model) yield { type: 'model', model, source: 'api_response_model' };
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      const delta = choice?.delta ?? {};
      if (typeof delta.content === 'string' && delta.content) yield { type: 'text', text: delta.content };
      for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        const index = typeof tc.index === 'number' ? tc.index : 0;
        const entry = calls.get(index) ?? { id: '', name: '', args: '' };
        if (tc.id) entry.id = tc.id;
        if (tc.function?.name) entry.name += tc.function.name;
        if (tc.function?.arguments) entry.args += tc.function.arguments;
        calls.set(index, entry);
      }
      if (typeof choice?.finish_reason === 'string') stopReason = choice.finish_reason;
    }
    if (chunk.usage && typeof chunk.usage === 'object') {
      yield { type: 'usage', inputTokens: numberOrNull(chunk.usage.prompt_tokens), outputTokens: numberOrNull(chunk.usage.completion_tokens) };
    }
  }
  for (const [, c] of [...calls].sort((a, b) => a[0] - b[0])) yield { type: 'tool_call', call: { id: c.id, name: c.name, input: parseArgs(c.args) } };
  yield { type: 'done', stopReason };
}

export async function listOpenAiModels(req: ModelsRequest, provider = 'The provider'): Promise<string[]> {
  const prefix = req.headerPrefix ?? 'Bearer';
  const body = await callJson({
    provider,
    url: joinUrl(req.baseUrl, req.endpoint ?? 'models'),
    headers: { authorization: prefix ? `${prefix} ${req.key}` : req.key },
    secrets: [req.key],
    fetch: req.fetch,
    signal: req.signal,
  });
  const rows = Array.isArray(body?.data) ? body.data : Array.isArray(body?.models) ? body.models : [];
  return rows.map((m: any) => (typeof m === 'string' ? m : m?.id)).filter((id: unknown): id is string => typeof id === 'string');
}

export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
