import type { Command } from 'commander';
import { commandContext } from '../lib/context.js';
import { intFlag } from '../lib/flags.js';
import type { Io } from '../lib/io.js';

const TERMINAL_NOTE = [
  'svc mcp speaks the Model Context Protocol (JSON-RPC 2.0, one message a line) on standard input and output:',
  'an MCP client starts it, it is not typed at. Add it to the client\'s configuration, for example',
  '  {"mcpServers": {"svc": {"command": "svc", "args": ["mcp"]}}}',
  '(Claude Code: claude mcp add svc -- svc mcp; `man svc-mcp` has the others). Its tools call the',
  'running service: start `svc serve` or the daemon first. Ctrl-D or Ctrl-C ends it.',
].join('\n');

/**
 * `svc mcp`: the MCP server on stdio for agent harnesses. Nothing but the
 * protocol writes to stdout; the SDK and the server load only here.
 */
export function register(program: Command, io: Io): void {
  program
    .command('mcp')
    .description('serve the MCP tool surface on stdio (a client of the running service)')
    .option('--port <port>', 'the service port (as SVC_PORT; never widened to the default)')
    .option('--state-dir <dir>', 'the state directory holding the port and token files (as SVC_STATE_DIR)')
    .option('--permission-relay', "internal: serve only the assistant's permission prompt tool for the conversation in SVC_ASSISTANT_SESSION_ID")
    .action(async (opts: { port?: string; stateDir?: string; permissionRelay?: boolean }) => {
      const port = intFlag(opts.port, '--port', { min: 1, max: 65535 });
      const env = { ...io.env, ...(port ? { SVC_PORT: String(port) } : {}), ...(opts.stateDir ? { SVC_STATE_DIR: opts.stateDir } : {}) };
      // Talk goes to stderr: stdout belongs to the protocol.
      const ctx = commandContext(io, { env });
      // On a terminal, a person typed `svc mcp`: say what it is before it waits for a client's messages.
      if (io.stdinIsTTY && !opts.permissionRelay) io.err(TERMINAL_NOTE);
      const [{ createBackend }, { createMcpServer }, relay, { LineStdioTransport }] = await Promise.all([
        import('../../src/mcp/backend.js'),
        import('../../src/mcp/server.js'),
        import('../../src/mcp/permission-relay.js'),
        import('../../src/mcp/stdio.js'),
      ]);
      const backend = createBackend({ port: ctx.config.port, paths: ctx.paths, fetch: ctx.fetch });
      // The relay is a separate server: the public surface (contract v2.3) keeps exactly its 25 tools.
      const server = opts.permissionRelay ? relay.createRelayServer(backend, relay.relaySessionId(io.env)) : createMcpServer(backend);
      await server.connect(new LineStdioTransport());
      await new Promise<void>((resolve) => {
        server.onclose = () => resolve();
        process.stdin.on('end', () => resolve());
      });
      await server.close();
    });
}
