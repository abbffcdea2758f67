/**
 * Loopback imitations of the providers' APIs, speaking each family's real
 * streaming wire format, and a fake agent CLI script speaking stream-json.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeProvider {
  url: string;
  seen: SeenRequest[];
  /** Text the next responses stream (split into chunks). */
  reply: string[];
  /** Hold each streamed response this long before finishing (cancel tests). */
  holdMs: number;
  close(): Promise<void>;
}

const sse = (res: http.ServerResponse, frames: { event?: string; data: unknown }[]) => {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const f of frames) res.write(`${f.event ? `event: ${f.event}\n` : ''}data: ${typeof f.data === 'string' ? f.data : JSON.stringify(f.data)}\n\n`);
};

export async function startFakeProvider(key: string): Promise<FakeProvider> {
  const fake: FakeProvider = { url: '', seen: [], reply: ['Hello', ' from', ' the fake'], holdMs: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      fake.seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = req.url!;
      const given = req.headers.authorization?.replace(/^Bearer /, '') ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'];
      if (given !== key) {
        res.writeHead(401, { 'content-type': 'application/json' });
        // Real providers sometimes quote part of the key back: the service must scrub it.
        res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${given}` } }));
        return;
      }
      const hold = () => new Promise((r) => setTimeout(r, fake.holdMs));
      if (url.endsWith('/models') || url.endsWith('/custom/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (url.startsWith('/gemini')) res.end(JSON.stringify({ models: [{ name: 'models/gemini-2.0-flash' }, { name: 'models/gemini-1.5-pro' }] }));
        else res.end(JSON.stringify({ data: [{ id: 'model-b' }, { id: 'model-a' }] }));
        return;
      }
      if (url.startsWith('/openai/chat/completions')) {
        sse(res, [
          { data: { id: 'c1', model: 'served-model-1', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] } },
          ...fake.reply.map((t) => ({ data: { id: 'c1', model: 'served-model-1', choices: [{ index: 0, delta: { content: t } }] } })),
        ]);
        await hold();
        if (res.destroyed) return;
        sse(res, [
          { data: { id: 'c1', model: 'served-model-2', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } },
          { data: { id: 'c1', model: 'served-model-2', choices: [], usage: { prompt_tokens: 11, completion_tokens: 7 } } },
          { data: '[DONE]' },
        ]);
        res.end();
        return;
      }
      if (url.startsWith('/anthropic/messages')) {
        sse(res, [
          { event: 'message_start', data: { type: 'message_start', message: { id: 'm1', model: 'claude-served', usage: { input_tokens: 5, output_tokens: 1 } } } },
          { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
          { event: 'ping', data: { type: 'ping' } },
          ...fake.reply.map((t) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } } })),
          { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
          // A tool call only when tools are offered and the last message is not already a tool answer.
          ...(body?.tools?.length && !JSON.stringify(body.messages.at(-1)).includes('tool_result')
            ? [
                { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'search_corpus', input: {} } } },
                { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query": "ec' } } },
                { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ology"}' } } },
                { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
              ]
            : []),
          { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } } },
          { event: 'message_stop', data: { type: 'message_stop' } },
        ]);
        res.end();
        return;
      }
      if (url.startsWith('/gemini/models/') && url.includes(':streamGenerateContent?alt=sse')) {
        sse(res, [
          ...fake.reply.map((t) => ({ data: { candidates: [{ content: { role: 'model', parts: [{ text: t }] } }], modelVersion: 'gemini-served-001' } })),
          { data: { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4 }, modelVersion: 'gemini-served-001' } },
        ]);
        res.end();
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no such route' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}

/**
 * A fake agent CLI: reads the prompt on stdin and answers in stream-json.
 * Prompts containing SLOW wait (cancel tests); FAIL exits 3 after writing
 * the given text to stderr. It records its argv, env and the MCP
 * configuration it was given (text and file mode) in <dir>/calls.jsonl.
 *
 * PERMIT does what Claude Code does for a tool that is not allowed up front:
 * with --permission-prompt-tool mcp__<server>__<tool>, it starts that server
 * from the --mcp-config file with a real MCP stdio client and calls the tool
 * with {tool_name: 'Bash', input: {command: 'echo hi'}, tool_use_id}; on
 * {"behavior":"allow","updatedInput"} it "runs" the tool (says `ran Bash
 * with <updatedInput>`), on {"behavior":"deny","message"} it says `refused
 * Bash: <message>`. Without a permission prompt tool the call is refused.
 */
export function writeFakeAgent(dir: string): string {
  const sdkClient = import.meta.resolve('@modelcontextprotocol/sdk/client/index.js');
  const sdkStdio = import.meta.resolve('@modelcontextprotocol/sdk/client/stdio.js');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'fake-agent');
  fs.writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('fs');
const path = require('path');
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', async () => {
  const argAfter = (flag) => { const i = process.argv.indexOf(flag); return i > 0 ? process.argv[i + 1] : undefined; };
  const configPath = argAfter('--mcp-config');
  const mcpConfig = configPath && fs.existsSync(configPath) ? fs.readFileSync(configPath, 'utf8') : null;
  const mcpConfigMode = mcpConfig !== null ? fs.statSync(configPath).mode & 0o777 : null;
  fs.appendFileSync(path.join(${JSON.stringify(dir)}, 'calls.jsonl'), JSON.stringify({ argv: process.argv.slice(2), env: process.env, prompt: input, mcpConfig, mcpConfigMode }) + '\\n');
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
  if (input.includes('FAIL')) { process.stderr.write('agent broke: ' + input + '\\n'); process.exit(3); }
  const resume = process.argv.indexOf('--resume');
  out({ type: 'system', subtype: 'init', model: 'agent-reported-model', session_id: resume > 0 ? process.argv[resume + 1] : 'native-abc' });
  if (input.includes('PERMIT')) {
    const promptTool = argAfter('--permission-prompt-tool');
    const m = /^mcp__(.+?)__(.+)$/.exec(promptTool || '');
    let said;
    if (!m || !mcpConfig) said = 'refused Bash: no permission prompt tool';
    else {
      const server = JSON.parse(mcpConfig).mcpServers[m[1]];
      const { Client } = await import(${JSON.stringify(sdkClient)});
      const { StdioClientTransport } = await import(${JSON.stringify(sdkStdio)});
      const client = new Client({ name: 'fake-agent', version: '0' });
      await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: { ...process.env, ...(server.env || {}) }, stderr: 'inherit' }));
      out({ type: 'assistant', message: { content: [{ type: 'text', text: 'asking; ' }] } });
      const r = await client.callTool({ name: m[2], arguments: { tool_name: 'Bash', input: { command: 'echo hi' }, tool_use_id: 'toolu_fake_1' } }, undefined, { timeout: 600000 });
      const decision = JSON.parse(r.content[0].text);
      said = decision.behavior === 'allow' ? 'ran Bash with ' + JSON.stringify(decision.updatedInput) : 'refused Bash: ' + decision.message;
      await client.close();
    }
    out({ type: 'assistant', message: { content: [{ type: 'text', text: said }] } });
    out({ type: 'result', subtype: 'success', is_error: false, result: 'ok', usage: { input_tokens: 1, output_tokens: 1 } });
    return;
  }
  if (input.includes('SLOW')) { out({ type: 'assistant', message: { content: [{ type: 'text', text: 'thinking' }] } }); await new Promise((r) => setTimeout(r, 30000)); }
  out({ type: 'assistant', message: { content: [{ type: 'text', text: 'agent says: ' + input.trim() + ' effort=' + (process.env.MAX_THINKING_TOKENS || 'none') }] } });
  out({ type: 'result', subtype: 'success', is_error: false, result: 'ok', total_cost_usd: 0.0123, usage: { input_tokens: 20, output_tokens: 6 } });
});
`,
    { mode: 0o755 },
  );
  return file;
}

/** Parse an SSE body into frames. */
export function parseFrames(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return event ? { event, data: data ? JSON.parse(data) : null } : undefined;
    })
    .filter((f): f is { event: string; data: any } => f !== undefined);
}

export interface OpenStream {
  status: Promise<number>;
  frames: { event: string; data: any }[];
  text: () => string;
  ended: Promise<void>;
  destroy(): void;
}

/** POST a JSON body and follow the answer as it streams (SSE or held JSON). */
export function openStream(port: number, token: string, urlPath: string, body: unknown): OpenStream {
  let raw = '';
  const frames: { event: string; data: any }[] = [];
  let req!: http.ClientRequest;
  let resolveStatus!: (s: number) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const ended = new Promise<void>((resolve) => {
    req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: urlPath, agent: false, headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        resolveStatus(res.statusCode ?? 0);
        res.on('data', (d) => {
          raw += d;
          frames.splice(0, frames.length, ...parseFrames(raw));
        });
        res.on('end', () => resolve());
        res.on('close', () => resolve());
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end(JSON.stringify(body));
  });
  return { status, frames, text: () => raw, ended, destroy: () => req.destroy() };
}

/** A conversation's turn claim as another process writes it: the job assistant_turn:N of job_claims. */
export interface TurnClaim {
  session_id: number;
  pid: number;
  runtime_id: string;
  claimed_at_ms: number;
}

export function putTurnClaim(db: Database, c: TurnClaim): void {
  db.prepare(
    `INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, ?, 'cli', ?, ?)`,
  ).run(`assistant_turn:${c.session_id}`, c.pid, c.runtime_id, c.claimed_at_ms, new Date(c.claimed_at_ms).toISOString());
}

export function getTurnClaim(db: Database, sessionId: number): { pid: number; runtime_id: string; cancel_requested: number } | undefined {
  return db.prepare('SELECT pid, runtime_id, cancel_requested FROM job_claims WHERE job = ?').get(`assistant_turn:${sessionId}`) as never;
}

export function deleteTurnClaim(db: Database, sessionId: number, runtimeId: string): void {
  db.prepare('DELETE FROM job_claims WHERE job = ? AND runtime_id = ?').run(`assistant_turn:${sessionId}`, runtimeId);
}

/**
 * Another process on the same file: it takes the write lock, says so, then claims the
 * conversation's turn as a live process (this pid, another runtime id) and commits.
 */
export function claimWhileLocked(file: string, sessionId: number, holdMs: number) {
  const code = `
    const { parentPort, workerData: w } = require('node:worker_threads');
    const Sqlite = require(w.sqlite);
    const db = new Sqlite(w.file);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('locked');
    setTimeout(() => {
      db.prepare("INSERT INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc) VALUES (?, ?, 'another-process', 'cli', ?, ?)")
        .run('assistant_turn:' + w.sessionId, w.pid, Date.now(), new Date().toISOString());
      db.exec('COMMIT');
      db.close();
      parentPort.postMessage('committed');
    }, w.holdMs);`;
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(code, { eval: true, workerData: { file, sessionId, pid: process.pid, holdMs, sqlite } });
  const said = (what: string) => new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => m === what && resolve());
    worker.on('error', reject);
  });
  return { locked: said('locked'), committed: said('committed'), done: () => worker.terminate() };
}
