import type { Command } from 'commander';
import { callServer, HEALTH_PROBE_TIMEOUT_MS, locateServer } from '../../src/client/discover.js';
import type { Health } from '../../src/wire/health.js';
import { describeHolder } from '../../src/scheduler/scheduler.js';
import { withContext } from '../lib/context.js';
import { emit, type Io } from '../lib/io.js';

const ROLE_WORDS: Record<string, string> = {
  daemon: ' (the daemon)',
  fallback: " (a window's fallback backend: no scheduler; it stops once no window is open and nothing runs)",
};

export function register(program: Command, io: Io): void {
  program
    .command('health')
    .description('find the running server (port file and token file) and ask it how it is')
    .action(() =>
      withContext(io, async (ctx) => {
        const server = locateServer(ctx);
        const health = (await callServer(ctx, server, 'GET', '/api/health', undefined, HEALTH_PROBE_TIMEOUT_MS)) as Health;
        emit(io, { base_url: server.baseUrl, ...health }, () =>
          [
            `svc ${health.version} is running on ${server.baseUrl}${ROLE_WORDS[health.role] ?? ''}`,
            `  schema ${health.schema_version}, scheduler ${health.scheduler.state}${health.scheduler.held_by ? ` (routines are fired by ${describeHolder(health.scheduler.held_by)})` : ''}, ${health.daemon.state === 'lock_present' ? 'daemon lock held (`svc daemon status` says more)' : 'no daemon'}`,
            `  runtime ${health.identity.runtime_id}, started ${health.started_at_utc}`,
          ].join('\n'),
        );
      }),
    );
}
