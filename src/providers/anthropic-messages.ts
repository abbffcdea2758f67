/**
 * The Anthropic messages family: POST {base}/messages with stream=true and
 * the x-api-key header; models from GET {base}/models.
 */
import { UpstreamError } from './errors.js';
import { scrub } from './errors.js';
import { call, callJson, joinUrl, modelReporter } from './http.js';
import { numberOrNull } from './openai-chat.js';
import { frameJson, readSse } from './sse-reader.js';
import type { ChatRequest, ModelsRequest, ProviderEvent, Turn } from './types.js';

export const ANTHROPIC_VERSION = '2023-06-01';

function wireMessages(turns: Turn[]) {
  return turns.map((turn) => {
    if (turn.role === 'tool') {
      return { role: 'user', content: turn.results.map((r) => ({ type: 'tool_result', tool_use_id: r.callId, content: JSON.stringify(r.output), is_error: r.isError })) };
    }
    if ('toolCalls' in turn) {
      return {
        role: 'assistant',
        content: [...(turn.content ? [{ type: 'text', text: turn.content }] : []), ...turn.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))],
      };
    }
    return { role: turn.role, content: turn.content };
  });
}

export async function* streamAnthropicMessages(req: ChatRequest, provider = 'Anthropic'): AsyncGenerator<ProviderEvent> {
  const body: Record<string, unknown> = { model: req.model, max_tokens: req.maxOutputTokens ?? 4096, messages: wireMessages(req.messages), stream: true };
  if (req.system) body.system = req.system;
  if (req.tools?.length) body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  const res = await call({
    provider,
    url: joinUrl(req.baseUrl, 'messages'),
    headers: { 'x-api-key': req.key, 'anthropic-version': ANTHROPIC_VERSION },
    body,
    secrets: [req.key],
    fetch: req.fetch,
    signal: req.signal,
  });
  const report = modelReporter();
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  let inputTokens: number | null = null;
  let stopReason: string | null = null;
  for await (const frame of readSse(res.body!, req.signal)) {
    const data = frameJson(frame.data);
    if (!data) continue;
    switch (data.type) {
      case 'message_start': {
        const model = report(data.message?.model);
        if (model) yield { type: 'model', model, source: 'api_response_model' };
        inputTokens = numberOrNull(data.message?.usage?.input_tokens);
        break;
      }
      case 'content_block_start':
        if (data.content_block?.type === 'tool_use') blocks.set(data.index, { id: String(data.content_block.id ?? ''), name: String(data.content_block.name ?? ''), json: '' });
        break;
      case 'content_block_delta':
        if (data.delta?.type === 'text_delta' && typeof data.delta.text === 'string') yield { type: 'text', text: data.delta.text };
        else if (data.delta?.type === 'input_json_delta' && blocks.has(data.index)) blocks.get(data.index)!.json += String(data.delta.partial_json ?? '');
        break;
      case 'content_block_stop': {
        const block = blocks.get(data.index);
        if (block) {
          blocks.delete(data.index);
          let input: Record<string, unknown> = {};
          try {
            const parsed = JSON.parse(block.json || '{}');
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) input = parsed;
          } catch {
            input = {};
          }
          yield { type: 'tool_call', call: { id: block.id, name: block.name, input } };
        }
        break;
      }
      case 'message_delta':
        if (typeof data.delta?.stop_reason === 'string') stopReason = data.delta.stop_reason;
        yield { type: 'usage', inputTokens, outputTokens: numberOrNull(data.usage?.output_tokens) };
        break;
      case 'error':
        throw new UpstreamError('server_error', null, `${provider} stopped the stream: ${scrub(String(data.error?.message ?? 'unknown error'), [req.key]).slice(0, 300)}`);
    }
  }
  yield { type: 'done', stopReason };
}

export async function listAnthropicModels(req: ModelsRequest, provider = 'Anthropic'): Promise<string[]> {
  const body = await callJson({
    provider,
    url: joinUrl(req.baseUrl, req.endpoint ?? 'models'),
    headers: { 'x-api-key': req.key, 'anthropic-version': ANTHROPIC_VERSION },
    secrets: [req.key],
    fetch: req.fetch,
    signal: req.signal,
  });
  const rows = Array.isArray(body?.data) ? body.data : [];
  return rows.map((m: any) => m?.id).filter((id: unknown): id is string => typeof id === 'string');
}
