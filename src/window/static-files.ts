/**
 * What the renderer server answers from the built app (dist/web/): index.html
 * for every app route (history routing: /explore, /papers/12, … — the page's
 * router draws the route, or its own "not found"), the files under /assets/,
 * and nothing else. An app route is a path outside /assets/ and /shell/ whose
 * last segment has no dot. Asset names are plain (no dot first, no "..") and
 * never followed through a link. Until the app is built, every app route gets
 * a page saying so and how to build it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/web/ beside the compiled dist/src/window/. */
export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
/** The checkout or installation folder, where `npm run build` runs. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type StaticAnswer =
  | { kind: 'app'; html: Buffer }
  | { kind: 'not_built'; html: string }
  | { kind: 'asset'; body: Buffer; type: string; immutable: boolean }
  | { kind: 'none' };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
/** esbuild's [name]-[hash] names: such a file never changes, so a browser may keep it. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9.]+$/;

export function isAppRoute(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.startsWith('/assets/') || pathname === '/assets' || pathname.startsWith('/shell/') || pathname === '/shell') return false;
  return !(pathname.split('/').at(-1) ?? '').includes('.');
}

export function readStatic(webRoot: string, pathname: string): StaticAnswer {
  if (isAppRoute(pathname)) {
    const html = readRegularFile(path.join(webRoot, 'index.html'));
    return html ? { kind: 'app', html } : { kind: 'not_built', html: notBuiltPage(webRoot) };
  }
  if (!pathname.startsWith('/assets/')) return { kind: 'none' };
  const segments = pathname.slice('/assets/'.length).split('/');
  if (!segments.every((s) => SEGMENT.test(s))) return { kind: 'none' };
  const file = path.join(webRoot, 'assets', ...segments);
  const body = readRegularFile(file);
  if (!body) return { kind: 'none' };
  const name = segments.at(-1)!;
  return { kind: 'asset', body, type: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream', immutable: HASHED.test(name) };
}

/** The bytes of a regular file, never through a symbolic link; undefined when there is none. */
function readRegularFile(file: string): Buffer | undefined {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function notBuiltPage(webRoot: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>svc: the window is not built</title></head>
<body>
<main>
<h1>The window is not built</h1>
<p>svc window serves the app from <code>${escapeHtml(webRoot)}</code>, which holds no <code>index.html</code>.</p>
<p>Build it with <code>npm run build</code> in <code>${escapeHtml(PACKAGE_ROOT)}</code>, then run <code>svc window</code> again.</p>
<p>Everything else works meanwhile: the command line (<code>svc --help</code>) uses the same data directory.</p>
</main>
</body>
</html>
`;
}
