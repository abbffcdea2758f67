/**
 * Debian's chromium for the browser tests. `.ci/run` must stay exactly the
 * README's `npm ci && npm test` (test/readme.test.ts), so a machine without it
 * gets it here: as root, `apt-get install -y chromium` once; otherwise the
 * test fails saying what to install. playwright-core never downloads a browser.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() === 0) {
    execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  return CHROMIUM;
}
