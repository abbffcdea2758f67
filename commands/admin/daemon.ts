import type { Command } from 'commander';
import { attachDaemon, startDaemon, stopDaemon } from '../../src/daemon/control.js';
import { daemonStatus } from '../../src/daemon/status.js';
import { withContext } from '../lib/context.js';
import { daemonText, statusText } from './daemon-format.js';
import { EXIT } from '../lib/exit-codes.js';
import { intFlag } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';

export function register(program: Command, io: Io): void {
  const daemon = program.command('daemon').description('the background daemon that owns the scheduler while no window is open');
  daemon
    .command('start')
    .description('start the daemon detached (svc serve --daemon); attach to the one running instead of starting a second')
    .option('--port <n>', 'port to bind (default: SVC_PORT, else 8742; 0 picks a free port)')
    .action((opts: { port?: string }) =>
      withContext(io, async (ctx) => {
        const answer = await startDaemon(ctx, { env: io.env, port: intFlag(opts.port, '--port', { min: 0, max: 65535 }) });
        emit(io, answer, () => daemonText(answer));
      }),
    );
  daemon
    .command('stop')
    .description('stop the daemon (SIGTERM; its runs in flight become interrupted with daemon_restart, never failed; it removes its lock)')
    .action(() =>
      withContext(io, async (ctx) => {
        const r = await stopDaemon(ctx);
        if (!r.stopped) io.exitCode = EXIT.failed;
        emit(io, r, () => r.message);
      }),
    );
  daemon
    .command('status')
    .description('read the daemon lock and probe its health route (1.5 s); exit 1 when no daemon answers')
    .action(() =>
      withContext(io, async (ctx) => {
        const s = await daemonStatus(ctx);
        if (!s.running) io.exitCode = EXIT.failed;
        emit(io, s, () => statusText(s));
      }),
    );
  daemon
    .command('attach')
    .description('wait for a starting daemon (about 3 s, never spawning one); exit 1 when none answers')
    .action(() =>
      withContext(io, async (ctx) => {
        const s = (await attachDaemon(ctx)) ?? (await daemonStatus(ctx));
        if (!s.running) io.exitCode = EXIT.failed;
        emit(io, s, () => statusText(s));
      }),
    );
}
