#!/usr/bin/env node
// Builds the window (web/) into dist/web/: type-checks it with its own
// tsconfig, bundles it with esbuild (one module per page, loaded on first
// visit; hashed names so the renderer server can cache them for good), and
// writes index.html naming the entry script and the style sheet. Run by
// `npm run build`; `--watch` rebuilds on change while developing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'dist', 'web');
const assets = path.join(out, 'assets');
const watch = process.argv.includes('--watch');

execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });

fs.rmSync(out, { recursive: true, force: true });
const options = {
  entryPoints: { main: path.join(here, 'src', 'main.tsx'), app: path.join(here, 'src', 'styles', 'app.css') },
  outdir: assets,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // A merge that drops a closing brace leaves a sheet the browser reads differently from the author: fail the build.
  logOverride: { 'css-syntax-error': 'error' },
  plugins: [{ name: 'index-html', setup: (build) => build.onEnd((result) => result.metafile && writeIndex(result.metafile)) }],
};

/** index.html names the hashed entry files esbuild just wrote. */
function writeIndex(metafile) {
  const entry = (name, ext) => {
    const file = Object.keys(metafile.outputs).find((f) => path.basename(f).startsWith(`${name}-`) && f.endsWith(ext));
    if (!file) throw new Error(`web/build.mjs: esbuild wrote no ${name}*${ext}`);
    return `/assets/${path.basename(file)}`;
  };
  const html = fs.readFileSync(path.join(here, 'index.html'), 'utf8').replace('%SCRIPT%', entry('main', '.js')).replace('%STYLE%', entry('app', '.css'));
  fs.writeFileSync(path.join(out, 'index.html'), html);
}

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  process.stderr.write('web/build.mjs: watching web/src for changes\n');
} else {
  await esbuild.build(options);
}
