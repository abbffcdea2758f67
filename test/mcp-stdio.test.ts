/**
 * `svc mcp` read as a person or a sloppy client meets it: a line that is not
 * JSON gets JSON-RPC's parse error (-32700, id null) and one that is no
 * JSON-RPC message gets invalid request (-32600), instead of silence, and the
 * server goes on answering; started on a terminal, it says on stderr what it
 * is and how a client is configured, and stdout stays the protocol's.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, runCli, tempDirs, waitFor } from './_setup.js';

const dirs = tempDirs();
test.after(() => dirs.cleanup());

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });

test('a line that is not JSON is answered with a JSON-RPC parse error, JSON that is no message with invalid request; the next message is answered as usual', async () => {
  const r = await runCli(['mcp'], { env: dirs.env, stdin: `hello\n\n{"id": 7, "method": 5}\n${INITIALIZE}\n` });
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.is(lines.length, 3, r.stdout);
  assert.equal([lines[0].jsonrpc, lines[0].id, lines[0].error.code], ['2.0', null, -32700]);
  assert.match(lines[0].error.message, /^Parse error: the line is not JSON/);
  assert.equal([lines[1].id, lines[1].error.code], [7, -32600]);
  assert.equal([lines[2].id, lines[2].result.serverInfo.name], [1, 'svc']);
  assert.is(r.stderr, '', 'off a terminal nothing but the protocol is said');
});

test('on a terminal, svc mcp says on stderr that it speaks MCP on stdin and how a client is configured', async () => {
  const quoted = [process.execPath, path.join(ROOT, 'bin', 'svc.js'), 'mcp'].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', `stty cols 200 rows 50; ${quoted}`, '/dev/null'], { env: { PATH: process.env.PATH, TERM: 'xterm', ...dirs.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    await waitFor(() => out.includes('Ctrl-D or Ctrl-C ends it.'), 30_000, 'the note');
    child.stdin.write('hello\r');
    await waitFor(() => out.includes('-32700'), 10_000, 'the parse error');
  } finally {
    child.stdin.write('\x04');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    await closed;
  }
  const said = out.replace(/\r/g, '');
  assert.match(said, /svc mcp speaks the Model Context Protocol \(JSON-RPC 2\.0, one message a line\) on standard input and output/);
  assert.match(said, /\{"mcpServers": \{"svc": \{"command": "svc", "args": \["mcp"\]\}\}\}/);
  assert.match(said, /`man svc-mcp` has the others/);
});

test.run();
