/**
 * Fake model endpoints on loopback speaking the real wire formats: OpenAI
 * chat completions (SSE chunks, [DONE]) and Anthropic messages (typed SSE
 * events), and a fake agent CLI emitting stream-json lines. Each builds its
 * output from the request it received, so citations can be exact.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export type Behaviour = 'valid' | 'insufficient' | 'bad_citation' | 'oversize' | 'hang' | 'no_stop';

/** The model's reply to the user prompt canonicalJson({payload, request_sha256}). */
export function replyFor(user: string, behaviour: Behaviour): string {
  const { payload, request_sha256 } = JSON.parse(user);
  const base = { version: 1, request_sha256, mode: payload.mode, limitations: ['Only the selected text was read.'] };
  const s01 = payload.sources[0];
  const quote = [...s01.text].slice(0, 12).join('');
  if (behaviour === 'insufficient') return JSON.stringify({ ...base, status: 'insufficient_evidence', sections: [] });
  if (behaviour === 'oversize') return 'x'.repeat(70 * 1024);
  const citation = behaviour === 'bad_citation' ? { source_id: 'S01', quote: 'words that are not there' } : { source_id: 'S01', quote };
  return JSON.stringify({ ...base, status: 'answer', sections: [{ kind: 'summary', items: [{ kind: 'source_statement', text: 'The source says so.', citations: [citation] }] }] });
}

export interface FakeServer {
  url: string;
  requests: { path: string; headers: http.IncomingHttpHeaders; body: any }[];
  behaviour: Behaviour;
  close(): Promise<void>;
}

function chunks(text: string, n = 3): string[] {
  const size = Math.ceil(text.length / n) || 1;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function startFakeModel(family: 'openai' | 'anthropic' | 'gemini'): Promise<FakeServer> {
  const fake: FakeServer = { url: '', requests: [], behaviour: 'valid', close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw);
      fake.requests.push({ path: req.url ?? '', headers: req.headers, body });
      const user = family === 'openai' ? body.messages.find((m: any) => m.role === 'user').content : family === 'gemini' ? body.contents[0].parts[0].text : body.messages[0].content;
      const text = replyFor(user, fake.behaviour);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (event: string | null, data: unknown) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (family === 'openai') {
        for (const part of chunks(text)) send(null, { id: 'c1', object: 'chat.completion.chunk', model: 'gpt-test-0001', choices: [{ index: 0, delta: { content: part }, finish_reason: null }] });
        if (fake.behaviour === 'hang') return; // never finishes
        if (fake.behaviour !== 'no_stop') send(null, { id: 'c1', object: 'chat.completion.chunk', model: 'gpt-test-0001', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        send(null, { id: 'c1', object: 'chat.completion.chunk', model: 'gpt-test-0001', choices: [], usage: { prompt_tokens: 321, completion_tokens: 45 } });
        send(null, '[DONE]');
      } else if (family === 'gemini') {
        // streamGenerateContent?alt=sse: each frame a GenerateContentResponse; the last carries finishReason and usage.
        for (const part of chunks(text)) send(null, { candidates: [{ content: { role: 'model', parts: [{ text: part }] }, index: 0 }], modelVersion: 'gemini-test-001' });
        if (fake.behaviour === 'hang') return;
        const finish = fake.behaviour === 'no_stop' ? {} : { finishReason: 'STOP' };
        send(null, { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0, ...finish }], usageMetadata: { promptTokenCount: 222, candidatesTokenCount: 33, totalTokenCount: 255 }, modelVersion: 'gemini-test-001' });
      } else {
        send('message_start', { type: 'message_start', message: { id: 'm1', model: 'claude-test-1', usage: { input_tokens: 111, output_tokens: 1 } } });
        send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
        for (const part of chunks(text)) send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } });
        if (fake.behaviour === 'hang') return;
        send('content_block_stop', { type: 'content_block_stop', index: 0 });
        send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 22 } });
        send('message_stop', { type: 'message_stop' });
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  fake.url = family === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}/v1`;
  fake.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/**
 * A fake agent CLI (an executable node script): reads the prompt on stdin,
 * prints init, one assistant message and a result as stream-json lines. The
 * --model value picks the behaviour; every argv is logged next to it.
 */
export function writeFakeAgent(dir: string): string {
  const file = path.join(dir, 'fake-agent.mjs');
  const replyModule = path.join(dir, 'reply.mjs');
  fs.writeFileSync(replyModule, `export ${replyFor.toString()}\n`);
  fs.writeFileSync(
    file,
    `#!${process.execPath}
import fs from 'node:fs';
import { replyFor } from ${JSON.stringify(replyModule)};
const args = process.argv.slice(2);
const arg = (name) => { const i = args.indexOf(name); return i < 0 ? null : args[i + 1]; };
fs.writeFileSync(${JSON.stringify(path.join(dir, 'argv.json'))}, JSON.stringify({ args, cwd: process.cwd(), cwdEntries: fs.readdirSync(process.cwd()), env: Object.keys(process.env) }));
const mode = arg('--model') ?? 'valid';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
  const session = mode === 'bad_init' ? '00000000-0000-4000-8000-000000000000' : arg('--session-id');
  out({ type: 'system', subtype: 'init', session_id: session, tools: [], mcp_servers: [], model: 'claude-cli-test' });
  if (mode === 'huge_line') { process.stdout.write('{"type":"assistant","pad":"' + 'y'.repeat(300 * 1024) + '"}\\n'); return; }
  if (mode === 'split_utf8') {
    // One assistant line in two writes, cut inside a three-byte character.
    const said = replyFor(input, 'valid').replace('The source says so.', 'The source says so — ü ✓.');
    const line = Buffer.from(JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: said }] } }) + '\\n');
    const cut = line.indexOf(Buffer.from('✓')) + 1;
    process.stdout.write(line.subarray(0, cut));
    setTimeout(() => {
      process.stdout.write(line.subarray(cut));
      out({ type: 'result', subtype: 'success', is_error: false, result: said, usage: { input_tokens: 77, output_tokens: 9 } });
    }, 50);
    return;
  }
  const text = replyFor(input, mode);
  out({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
  if (mode === 'hang') { setInterval(() => {}, 1000); return; }
  out({ type: 'result', subtype: 'success', is_error: false, result: text, usage: { input_tokens: 77, output_tokens: 9 } });
});
`,
    { mode: 0o755 },
  );
  return file;
}

/** What the fake summary model writes. */
export const SUMMARY = 'Themes: chemical and communicating ecology.\nNotable papers: [1] and [2].\nPossibly off-topic: none.';

export type SummaryMode = 'ok' | 'unauthorized' | 'hang' | 'empty' | 'controls' | 'long';

/** What mode 'controls' writes: the summary with terminal escapes and a bidirectional override in it. */
export const SUMMARY_WITH_CONTROLS = 'Themes: \u001b[2J\u001b]0;owned\u0007chemical \u202eecology.\r\nNotable papers: [1]\u0000 and [2].';

export interface SummaryModel {
  url: string;
  mode: SummaryMode;
  requests: { url: string; headers: http.IncomingHttpHeaders; raw: string; body: any }[];
  close(): Promise<void>;
}

/** An OpenAI-compatible chat endpoint on loopback: SSE chunks that report a served model, then [DONE]. */
export async function startSummaryModel(key: string): Promise<SummaryModel> {
  const fake: SummaryModel = { url: '', mode: 'ok', requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      fake.requests.push({ url: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
      if (fake.mode === 'unauthorized') {
        // A provider that quotes the key it refused: svc must not pass it on.
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (fake.mode === 'hang') {
        send({ model: 'served-summary-model', choices: [{ index: 0, delta: { content: 'Themes: ' }, finish_reason: null }] });
        return; // never ends
      }
      const text = fake.mode === 'empty' ? '' : fake.mode === 'controls' ? SUMMARY_WITH_CONTROLS : fake.mode === 'long' ? 'Themes: ecology. '.repeat(1000) : SUMMARY;
      for (let i = 0; i < text.length; i += 40) send({ model: 'served-summary-model', choices: [{ index: 0, delta: { content: text.slice(i, i + 40) }, finish_reason: null }] });
      send({ model: 'served-summary-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      send({ model: 'served-summary-model', choices: [], usage: { prompt_tokens: 900, completion_tokens: 60 } });
      send('[DONE]');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  fake.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return fake;
}

