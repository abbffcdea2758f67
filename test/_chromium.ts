/**
 * Debian's chromium for the browser tests, installed by `npm test`'s pretest
 * (test/ensure-chromium.mjs) when missing. playwright-core never downloads a
 * browser.
 */
import fs from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); npm test's pretest does it when run as root`);
  return CHROMIUM;
}
