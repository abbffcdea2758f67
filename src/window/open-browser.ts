/**
 * Opening the system browser at the launch URL: xdg-open on Linux and the
 * BSDs, open on macOS, start on Windows. Spawning is passed in, so tests
 * never open a browser (they run svc window --no-open, or put a stand-in
 * xdg-open first on PATH).
 */
import { spawn as nodeSpawn } from 'node:child_process';

export function browserCommand(platform: NodeJS.Platform, url: string): { file: string; args: string[] } {
  if (platform === 'darwin') return { file: 'open', args: [url] };
  // start's first quoted argument is a window title; the URL has no characters cmd would act on (base64url code).
  if (platform === 'win32') return { file: 'cmd', args: ['/c', 'start', '""', url] };
  return { file: 'xdg-open', args: [url] };
}

/** How long an opener that has not exited yet is given before it is taken to have worked. */
const OPENER_WAIT_MS = 3000;

/** Resolves once the opener ran (or is still running after a moment); rejects with what went wrong. */
export function openBrowser(url: string, spawn: typeof nodeSpawn = nodeSpawn, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { file, args } = browserCommand(platform, url);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: platform === 'win32' });
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, OPENER_WAIT_MS);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(err.code === 'ENOENT' ? `${file} is not installed` : `${file} failed: ${err.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${file} exited with code ${code}`));
    });
  });
}
