import type { Command } from 'commander';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { intFlag } from './lib/flags.js';
import type { Io } from './lib/io.js';

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
    .action(async (opts: { port?: string; stateDir?: string }) => {
      const port = intFlag(opts.port, '--port', { min: 1, max: 65535 });
      const env = { ...io.env, ...(port ? { SVC_PORT: String(port) } : {}), ...(opts.stateDir ? { SVC_STATE_DIR: opts.stateDir } : {}) };
      // Talk goes to stderr: stdout belongs to the protocol.
      const ctx = createContext({ env, log: createLogger({ level: 'warn', sink: (line) => io.err(line) }) });
      const [{ createBackend }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
        import('../src/mcp/backend.js'),
        import('../src/mcp/server.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      const server = createMcpServer(createBackend({ port: ctx.config.port, paths: ctx.paths, fetch: ctx.fetch }));
      await server.connect(new StdioServerTransport());
      await new Promise<void>((resolve) => {
        server.onclose = () => resolve();
        process.stdin.on('end', () => resolve());
      });
      await server.close();
    });
}
