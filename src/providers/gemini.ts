/**
 * The Gemini generateContent family: POST
 * {base}/models/{model}:streamGenerateContent?alt=sse with the
 * x-goog-api-key header (never the key in the URL, where logs would keep it).
 * The response's modelVersion is the model it claims.
 */
import { call, callJson, joinUrl, modelReporter } from './http.js';
import { numberOrNull } from './openai-chat.js';
import { frameJson, readSse } from './sse-reader.js';
import type { ChatRequest, ModelsRequest, ProviderEvent, Turn } from './types.js';

function wireContents(turns: Turn[]) {
  return turns.map((turn) => {
    if (turn.role === 'tool') {
      return { role: 'user', parts: turn.results.map((r) => ({ functionResponse: { name: r.name, response: { output: r.output, is_error: r.isError } } })) };
    }
    if ('toolCalls' in turn) {
      return { role: 'model', parts: [...(turn.content ? [{ text: turn.content }] : []), ...turn.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.input } }))] };
    }
    return { role: turn.role === 'assistant' ? 'model' : 'user', parts: [{ text: turn.content }] };
  });
}

export async function* streamGemini(req: ChatRequest, provider = 'Google Gemini'): AsyncGenerator<ProviderEvent> {
  const body: Record<string, unknown> = { contents: wireContents(req.messages) };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  if (req.maxOutputTokens) body.generationConfig = { maxOutputTokens: req.maxOutputTokens };
  if (req.tools?.length) body.tools = [{ functionDeclarations: req.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })) }];
  const path = `models/${encodeURIComponent(req.model)}:streamGenerateContent?alt=sse`;
  const res = await call({ provider, url: joinUrl(req.baseUrl, path), headers: { 'x-goog-api-key': req.key }, body, secrets: [req.key], fetch: req.fetch, signal: req.signal });
  const report = modelReporter();
  let stopReason: string | null = null;
  let callCount = 0;
  for await (const frame of readSse(res.body!, req.signal)) {
    const chunk = frameJson(frame.data);
    if (!chunk) continue;
    const model = report(chunk.modelVersion);
    if (model) yield { type: 'model', model, source: 'alt_api_response_modelVersion' };
    for (const candidate of Array.isArray(chunk.candidates) ? chunk.candidates.slice(0, 1) : []) {
      for (const part of Array.isArray(candidate?.content?.parts) ? candidate.content.parts : []) {
        if (typeof part?.text === 'string' && part.text && !part.thought) yield { type: 'text', text: part.text };
        if (part?.functionCall?.name) {
          const args = part.functionCall.args;
          yield { type: 'tool_call', call: { id: `call_${++callCount}`, name: String(part.functionCall.name), input: args && typeof args === 'object' && !Array.isArray(args) ? args : {} } };
        }
      }
      if (typeof candidate?.finishReason === 'string') stopReason = candidate.finishReason;
    }
    if (chunk.usageMetadata) {
      yield { type: 'usage', inputTokens: numberOrNull(chunk.usageMetadata.promptTokenCount), outputTokens: numberOrNull(chunk.usageMetadata.candidatesTokenCount) };
    }
  }
  yield { type: 'done', stopReason };
}

export async function listGeminiModels(req: ModelsRequest, provider = 'Google Gemini'): Promise<string[]> {
  const body = await callJson({ provider, url: joinUrl(req.baseUrl, req.endpoint ?? 'models'), headers: { 'x-goog-api-key': req.key }, secrets: [req.key], fetch: req.fetch, signal: req.signal });
  const rows = Array.isArray(body?.models) ? body.models : [];
  return rows.map((m: any) => (typeof m?.name === 'string' ? m.name.replace(/^models\//, '') : undefined)).filter((id: unknown): id is string => typeof id === 'string');
}
