/**
 * The browser of the browser tests, found on this machine and never
 * downloaded (playwright-core drives it): CHROMIUM_PATH when set, else
 * Chromium or Chrome on PATH (Debian's /usr/bin/chromium) or in macOS's
 * /Applications. Every browser test file takes its `test` from
 * `browserTests()`: without a browser its tests are skipped, with one line
 * saying why and how to get one (test/_skip.ts), unless the browser was asked
 * for — in CI (CI=true) or with SVC_TEST_INSTALL_CHROMIUM=1, where
 * test/ensure-chromium.mjs installs it first — and then its absence fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, type Test } from 'uvu';
import { skippedTests } from './_skip.js';

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const MAC_APPS = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

export const HOW_TO_GET_ONE = "install Debian's chromium (apt-get install chromium) or Chrome, or set CHROMIUM_PATH to one";

export type ChromiumFound = { path: string } | { path?: undefined; why: string };

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where Chromium or Chrome is, or why none was taken. @example findChromium({ CHROMIUM_PATH: '/opt/chrome/chrome' }) */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumFound {
  const chosen = env.CHROMIUM_PATH;
  if (chosen) return isExecutableFile(chosen) ? { path: chosen } : { why: `CHROMIUM_PATH=${chosen} is not an executable file; point it at a Chromium or Chrome` };
  const onPath = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const dir of onPath) if (isExecutableFile(path.join(dir, name))) return { path: path.join(dir, name) };
  }
  const app = MAC_APPS.find(isExecutableFile);
  return app ? { path: app } : { why: `no Chromium or Chrome found (${CHROMIUM_NAMES.join(', ')} on PATH); ${HOW_TO_GET_ONE}` };
}

/** In CI, or when asked to install one, the browser tests must run: a missing browser is a failure there, not a skip. */
export const browserRequired = (env: NodeJS.ProcessEnv = process.env) => env.CI === 'true' || env.SVC_TEST_INSTALL_CHROMIUM === '1';

export interface BrowserTests {
  /** uvu's `test`, or a stand-in that skips every test when there is no browser. */
  test: Test;
  /** The browser to launch; throws the reason when there is none. */
  executablePath(): string;
}

export function browserTests(env: NodeJS.ProcessEnv = process.env): BrowserTests {
  const found = findChromium(env);
  if (found.path !== undefined) return { test, executablePath: () => found.path };
  const why = `browser tests skipped: ${found.why}`;
  const missing = () => {
    const message = `browser tests failed: ${found.why} (CI=true or SVC_TEST_INSTALL_CHROMIUM=1 asks for the browser tests to run)`;
    console.error(message); // uvu swallows an error thrown by a before hook: said here, it reaches the runner's output
    throw new Error(message);
  };
  return browserRequired(env) ? { test, executablePath: missing } : { test: skippedTests(why), executablePath: missing };
}
