/**
 * Where svc keeps things. SVC_DATA_DIR holds the database, reports and spool;
 * SVC_STATE_DIR holds token files, the port file, the daemon lock and the
 * credentials file. Without them, the operating system's per-user locations:
 *
 *   Linux    $XDG_DATA_HOME/svc (~/.local/share/svc)     $XDG_STATE_HOME/svc (~/.local/state/svc)
 *   macOS    ~/Library/Application Support/svc          ~/Library/Application Support/svc/state
 *   Windows  %LOCALAPPDATA%\svc\Data                    %LOCALAPPDATA%\svc\State
 *
 * The data folder is env-paths' `data` (with no "-nodejs" suffix) on all three.
 * env-paths itself is not used: it reads process.env and the home folder when
 * it is imported, where svc takes them from the config module (tests pass
 * their own, STYLE "pass the outside world in"), and it has no state folder:
 * its nearest, `log`, is ~/Library/Logs on macOS, no place for tokens and locks.
 */
import os from 'node:os';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';

export interface Paths {
  dataDir: string;
  stateDir: string;
  database: string;
  reportsDir: string;
  credentialsFile: string;
  portFile: string;
  daemonLock: string;
  tokenFile(port: number): string;
}

function defaultDirs(platform: NodeJS.Platform, dirs: Config['osDirs']) {
  const home = dirs.home ?? os.homedir();
  if (platform === 'darwin') {
    const base = path.join(home, 'Library', 'Application Support', 'svc');
    return { data: base, state: path.join(base, 'state') };
  }
  if (platform === 'win32') {
    const local = dirs.localAppData ?? path.join(home, 'AppData', 'Local');
    return { data: path.join(local, 'svc', 'Data'), state: path.join(local, 'svc', 'State') };
  }
  const xdgData = dirs.xdgDataHome ?? path.join(home, '.local', 'share');
  const xdgState = dirs.xdgStateHome ?? path.join(home, '.local', 'state');
  return { data: path.join(xdgData, 'svc'), state: path.join(xdgState, 'svc') };
}

export function resolvePaths(config: Config, platform: NodeJS.Platform = process.platform): Paths {
  const defaults = defaultDirs(platform, config.osDirs);
  const dataDir = path.resolve(config.dataDir ?? defaults.data);
  const stateDir = path.resolve(config.stateDir ?? defaults.state);
  return {
    dataDir,
    stateDir,
    database: path.join(dataDir, 'svc.db'),
    reportsDir: path.join(dataDir, 'reports'),
    credentialsFile: path.join(stateDir, 'credentials.json'),
    // One port file per data directory: servers of other data directories sharing the state dir keep theirs.
    portFile: path.join(stateDir, `port-${crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`),
    daemonLock: path.join(stateDir, 'daemon.lock'),
    tokenFile: (port: number) => path.join(stateDir, `api-token-${port}`),
  };
}
