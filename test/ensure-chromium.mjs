#!/usr/bin/env node
// `npm test`'s pretest: Debian's chromium for the HTML export's browser test
// (playwright-core never downloads a browser). Installed once, as root, with
// apt-get when /usr/bin/chromium is missing; otherwise this says what to do
// and the browser test fails with the same sentence. Runs before the test
// runner so its per-file time limit never counts an install.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM) && process.getuid?.() === 0) {
  process.stderr.write('pretest: installing Debian chromium for the browser test…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 300_000, env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', timeout: 900_000, env });
  } catch (err) {
    process.stderr.write(`pretest: apt-get could not install chromium (${err.message.split('\n')[0]})\n`);
  }
}
if (!fs.existsSync(CHROMIUM)) process.stderr.write(`pretest: ${CHROMIUM} is missing; install Debian's chromium (apt-get install -y chromium) for the browser test\n`);
