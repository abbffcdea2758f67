import type { Command } from 'commander';
import { installService, serviceStatus, uninstallService } from '../../src/daemon/unit.js';
import { withContext } from '../lib/context.js';
import { intFlag } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';

type Status = ReturnType<typeof serviceStatus> & { commands_run?: string[]; registered?: boolean };

/** What to run next, after `status` or `install` (an uninstall the person just ran needs none). */
function nextStep(s: Status, after: 'status' | 'install'): string[] {
  if (!s.supported) return [];
  if (!s.installed) return ['  Install it with `svc service install --register` (writes the unit and starts the daemon now and at every login).'];
  if (after === 'install' && !s.registered) return ['  Written, not started: `svc service install --register` also enables and starts it.'];
  if (after === 'status') return ['  `svc daemon status` says whether the daemon runs; `svc service uninstall --deregister` removes the unit.'];
  return [];
}

const statusText = (s: Status, after?: 'status' | 'install') =>
  [
    s.supported ? `${s.kind} unit ${s.installed ? 'installed' : 'not installed'}: ${s.path}` : `No service unit on ${s.platform}.${'note' in s ? ` ${s.note}` : ''}`,
    ...(s.commands_run ?? []).map((c) => `  ran: ${c}`),
    ...(after ? nextStep(s, after) : []),
  ].join('\n');

export function register(program: Command, io: Io): void {
  const service = program.command('service').description('the service unit that starts the daemon at login (systemd user unit, launchd agent)');
  service.command('status').description('whether the unit file is installed, and its path').action(() =>
    withContext(io, (ctx) => {
      const s = serviceStatus(ctx);
      emit(io, s, () => statusText(s, 'status'));
    }),
  );
  service
    .command('install')
    .description('write the unit file; with --register also enable and start it')
    .option('--port <n>', 'port the daemon binds (default: SVC_PORT, else 8742)')
    .option('--register', 'enable and start it now (systemctl --user enable --now, launchctl bootstrap)')
    .action((opts: { port?: string; register?: boolean }) =>
      withContext(io, async (ctx) => {
        const s = await installService(ctx, { port: intFlag(opts.port, '--port', { min: 0, max: 65535 }) ?? null, register: Boolean(opts.register) });
        emit(io, s, () => statusText(s, 'install'));
      }),
    );
  service
    .command('uninstall')
    .description('remove the unit file; with --deregister stop and disable it first')
    .option('--deregister', 'stop and disable it first')
    .action((opts: { deregister?: boolean }) =>
      withContext(io, async (ctx) => {
        const s = await uninstallService(ctx, { deregister: Boolean(opts.deregister) });
        emit(io, s, () => (s.removed ? [`${s.kind} unit removed: ${s.path}`, ...s.commands_run.map((c) => `  ran: ${c}`)].join('\n') : statusText(s)));
      }),
    );
}
