import type { Command } from 'commander';
import { forgetHandedDownToken, parsePort } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { checkOrigin } from '../src/runtime/origins.js';
import type { Io } from './lib/io.js';

export function register(program: Command, io: Io): void {
  program
    .command('serve')
    .description('run the HTTP server on 127.0.0.1 until SIGINT or SIGTERM')
    .option('--port <n>', 'port to bind (default: SVC_PORT, else 8742; 0 picks a free port)')
    .option('--renderer-origin <url>', 'the desktop window origin allowed to call from a browser, e.g. http://127.0.0.1:5173')
    .action(async (opts: { port?: string; rendererOrigin?: string }) => {
      const port = opts.port === undefined ? undefined : parsePort(opts.port, '--port');
      const rendererOrigin = opts.rendererOrigin === undefined ? null : checkOrigin(opts.rendererOrigin, ['--renderer-origin']);
      const ctx = createContext({ env: io.env, log: createLogger({ sink: (line) => io.err(line) }) });
      const handedDown = ctx.config.apiToken;
      forgetHandedDownToken(io.env);
      const { startServer } = await import('../server/listen.js');
      const server = await startServer(ctx, { port, rendererOrigin, token: handedDown });
      if (io.json) io.out(JSON.stringify({ base_url: server.baseUrl, port: server.port, pid: process.pid, runtime_id: ctx.runtimeId }));
      else io.err(`svc serving on ${server.baseUrl} (token in ${ctx.paths.tokenFile(server.port)})`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          server.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
