/**
 * The per-user folders src/paths.ts chooses when SVC_DATA_DIR and SVC_STATE_DIR
 * name none, as svc(1) ENVIRONMENT lists them: the data folder is env-paths'
 * `data` on every platform; the state folder is svc's own (paths.ts says why).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { readConfig } from '../src/config.js';
import { resolvePaths } from '../src/paths.js';

const folders = (env: Record<string, string>, platform: NodeJS.Platform) => {
  const { dataDir, stateDir } = resolvePaths(readConfig(env), platform);
  return { dataDir, stateDir };
};

test('Linux: the XDG data and state homes, or their defaults under the home folder', () => {
  assert.equal(folders({ HOME: '/home/ann' }, 'linux'), { dataDir: '/home/ann/.local/share/svc', stateDir: '/home/ann/.local/state/svc' });
  assert.equal(folders({ HOME: '/home/ann', XDG_DATA_HOME: '/xdg/data', XDG_STATE_HOME: '/xdg/state' }, 'linux'), { dataDir: '/xdg/data/svc', stateDir: '/xdg/state/svc' });
});

test('macOS: Application Support, with the state folder inside it', () => {
  const base = '/Users/ann/Library/Application Support/svc';
  assert.equal(folders({ HOME: '/Users/ann' }, 'darwin'), { dataDir: base, stateDir: `${base}/state` });
});

test('Windows: Data and State under LOCALAPPDATA', () => {
  // Joined with this machine's separator: only the parts are the subject here.
  const local = path.resolve('/Users/ann/AppData/Local');
  assert.equal(folders({ USERPROFILE: '/Users/ann', LOCALAPPDATA: local }, 'win32'), { dataDir: path.join(local, 'svc', 'Data'), stateDir: path.join(local, 'svc', 'State') });
});

test('SVC_DATA_DIR and SVC_STATE_DIR win over every default', () => {
  assert.equal(folders({ HOME: '/home/ann', SVC_DATA_DIR: '/d', SVC_STATE_DIR: '/s' }, 'linux'), { dataDir: '/d', stateDir: '/s' });
});

test.run();
