#!/usr/bin/env node
// `npm test`'s browser step, after the build and before the runner (so the
// runner's per-file time limit never counts an install). It installs Debian's
// chromium with apt-get only where asked: in CI (CI=true) or with
// SVC_TEST_INSTALL_CHROMIUM=1, as root, when no Chromium or Chrome is found.
// Anywhere else it installs nothing and says nothing: without a browser the
// browser tests skip themselves with one line saying how to get one.
import { execFileSync } from 'node:child_process';
import { browserRequired, findChromium } from '../dist/test/_chromium.js';

if (browserRequired() && findChromium().path === undefined) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('ensure-chromium: no Chromium found and not root, so apt-get cannot install it; install chromium or set CHROMIUM_PATH\n');
  } else {
    process.stderr.write('ensure-chromium: installing Debian chromium for the browser tests…\n');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 300_000, env });
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', timeout: 900_000, env });
    } catch (err) {
      process.stderr.write(`ensure-chromium: apt-get could not install chromium (${err.message.split('\n')[0]})\n`);
    }
  }
}
