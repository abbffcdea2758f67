/**
 * The service unit that starts the daemon at login: a systemd user unit on
 * Linux, a launchd agent on macOS. Windows (a scheduled task) is described
 * and refused: svc does not install one. The platform and the command runner
 * (systemctl, launchctl) are part of the host, which tests replace.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { writeOwnerOnlyFile } from '../util/owned-files.js';
import { SVC_BIN } from './control.js';
import type { ServiceInstalled, ServiceUninstalled, ServiceUnit, UnitKind } from '../wire/daemon.js';

export interface ServiceHost {
  platform: NodeJS.Platform;
  /** Run a program; resolves with its exit code and output, never rejects on a non-zero exit. */
  run(file: string, args: string[]): Promise<{ code: number; output: string }>;
  uid: number;
}

const realHost = (): ServiceHost => ({
  platform: process.platform,
  uid: typeof process.getuid === 'function' ? process.getuid() : 0,
  run: (file, args) =>
    new Promise((resolve) => {
      execFile(file, args, { timeout: 30_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 127) : 0;
        resolve({ code, output: `${stdout}${stderr}`.trim().slice(0, 2000) });
      });
    }),
});

export const SERVICE_HOST_KEY = 'daemon.service-host';
export const serviceHost = (ctx: Context): ServiceHost => ctx.service(SERVICE_HOST_KEY, realHost);

export const SYSTEMD_UNIT_NAME = 'svc.service';
export const LAUNCHD_LABEL = 'org.svc.daemon';

function kindOf(platform: NodeJS.Platform): UnitKind {
  if (platform === 'linux') return 'systemd-user';
  if (platform === 'darwin') return 'launchd-agent';
  if (platform === 'win32') return 'windows-task';
  return 'unsupported';
}

function unitPath(ctx: Context, kind: UnitKind): string | null {
  const home = ctx.config.osDirs.home ?? os.homedir();
  if (kind === 'systemd-user') return path.join(ctx.config.osDirs.xdgConfigHome ?? path.join(home, '.config'), 'systemd', 'user', SYSTEMD_UNIT_NAME);
  if (kind === 'launchd-agent') return path.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  return null;
}

function daemonArgs(port: number | null): string[] {
  return [process.execPath, SVC_BIN, 'serve', '--daemon', '--foreground', ...(port === null ? [] : ['--port', String(port)])];
}

const systemdQuote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;

export function systemdUnit(ctx: Context, port: number | null): string {
  return [
    '[Unit]',
    'Description=svc research-paper collector (daemon: scheduler and HTTP server on 127.0.0.1)',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${daemonArgs(port).map(systemdQuote).join(' ')}`,
    `Environment=${systemdQuote(`SVC_DATA_DIR=${ctx.paths.dataDir}`)}`,
    `Environment=${systemdQuote(`SVC_STATE_DIR=${ctx.paths.stateDir}`)}`,
    'Restart=on-failure',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchdPlist(ctx: Context, port: number | null): string {
  const log = path.join(ctx.paths.stateDir, 'daemon.log');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key><string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...daemonArgs(port).map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    `    <key>SVC_DATA_DIR</key><string>${xml(ctx.paths.dataDir)}</string>`,
    `    <key>SVC_STATE_DIR</key><string>${xml(ctx.paths.stateDir)}</string>`,
    '  </dict>',
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>StandardOutPath</key><string>${xml(log)}</string>`,
    `  <key>StandardErrorPath</key><string>${xml(log)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

const WINDOWS_NOTE =
  'On Windows the daemon would run as a scheduled task at logon (schtasks /Create /SC ONLOGON /TN svc-daemon /TR "node <svc>\\bin\\svc.js serve --daemon --foreground"); svc does not install one. Create it yourself, or start the daemon with `svc daemon start`.';

export function serviceStatus(ctx: Context): ServiceUnit {
  const host = serviceHost(ctx);
  const kind = kindOf(host.platform);
  const file = unitPath(ctx, kind);
  return {
    platform: host.platform,
    kind,
    supported: file !== null,
    installed: file !== null && fs.existsSync(file),
    path: file,
    ...(kind === 'windows-task' ? { note: WINDOWS_NOTE } : {}),
  };
}

function refuseUnsupported(kind: UnitKind): never {
  if (kind === 'windows-task') throw new SvcError(501, 'unsupported_platform', WINDOWS_NOTE);
  throw new SvcError(501, 'unsupported_platform', 'svc installs a service unit on Linux (systemd user unit) and macOS (launchd agent) only.');
}

async function must(host: ServiceHost, file: string, args: string[]): Promise<string> {
  const r = await host.run(file, args);
  if (r.code !== 0) throw new SvcError(502, 'service_manager_failed', `${file} ${args.join(' ')} failed (exit ${r.code}): ${r.output.slice(0, 300)}`);
  return `${file} ${args.join(' ')}`;
}

/** Write the unit (and with register, enable and start it). */
export async function installService(ctx: Context, input: { port: number | null; register: boolean }): Promise<ServiceInstalled> {
  const host = serviceHost(ctx);
  const kind = kindOf(host.platform);
  const file = unitPath(ctx, kind);
  if (!file) refuseUnsupported(kind);
  const text = kind === 'systemd-user' ? systemdUnit(ctx, input.port) : launchdPlist(ctx, input.port);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeOwnerOnlyFile(file, text);
  const ran: string[] = [];
  if (input.register) {
    if (kind === 'systemd-user') {
      ran.push(await must(host, 'systemctl', ['--user', 'daemon-reload']));
      ran.push(await must(host, 'systemctl', ['--user', 'enable', '--now', SYSTEMD_UNIT_NAME]));
    } else {
      ran.push(await must(host, 'launchctl', ['bootstrap', `gui/${host.uid}`, file]));
    }
  }
  return { ...serviceStatus(ctx), registered: input.register, commands_run: ran };
}

/** Remove the unit; with deregister, stop and disable it first. */
export async function uninstallService(ctx: Context, input: { deregister: boolean }): Promise<ServiceUninstalled> {
  const host = serviceHost(ctx);
  const kind = kindOf(host.platform);
  const file = unitPath(ctx, kind);
  if (!file) refuseUnsupported(kind);
  const ran: string[] = [];
  const existed = fs.existsSync(file);
  if (input.deregister && existed) {
    if (kind === 'systemd-user') ran.push(await must(host, 'systemctl', ['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]));
    else ran.push(await must(host, 'launchctl', ['bootout', `gui/${host.uid}`, file]));
  }
  fs.rmSync(file, { force: true });
  if (input.deregister && existed && kind === 'systemd-user') ran.push(await must(host, 'systemctl', ['--user', 'daemon-reload']));
  return { ...serviceStatus(ctx), removed: existed, commands_run: ran };
}
