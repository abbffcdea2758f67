#!/usr/bin/env node
// Builds the window (web/) into dist/web/: type-checks it with its own
// tsconfig, bundles it with esbuild (one module per page, loaded on first
// visit; hashed names so the renderer server can cache them for good), and
// writes index.html naming the entry script and the style sheet. Run by
// `npm run build`; `--watch` rebuilds on change while developing.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
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

/**
 * pdf.js's worker, for the Evidence reader: its own file under /assets/ (the
 * CSP's worker-src 'self'), named by its content like esbuild's files so the
 * renderer server may let a browser keep it; the reader learns the name from
 * __PDF_WORKER_URL__. The library itself is bundled into the reader's chunk.
 */
function copyPdfWorker() {
  const source = path.join(root, 'node_modules', 'pdfjs-dist', 'build', 'pdf.worker.min.mjs');
  const bytes = fs.readFileSync(source);
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase();
  const name = `pdf.worker-${hash}.mjs`;
  fs.mkdirSync(assets, { recursive: true });
  fs.writeFileSync(path.join(assets, name), bytes);
  return `/assets/${name}`;
}
const pdfWorkerUrl = copyPdfWorker();

/**
 * pdf.js's WebAssembly decoders (JBIG2 and JPEG 2000 images of scanned pages,
 * ICC colours), fetched and compiled by the worker alone: the worker's file
 * carries no CSP of its own, so the page's CSP needs no 'wasm-unsafe-eval'.
 */
function copyPdfWasm() {
  const from = path.join(root, 'node_modules', 'pdfjs-dist', 'wasm');
  const into = path.join(assets, 'pdfjs-wasm');
  fs.mkdirSync(into, { recursive: true });
  for (const name of fs.readdirSync(from).filter((n) => n.endsWith('.wasm'))) fs.copyFileSync(path.join(from, name), path.join(into, name));
  return '/assets/pdfjs-wasm/';
}
const pdfWasmUrl = copyPdfWasm();
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
  define: { __PDF_WORKER_URL__: JSON.stringify(pdfWorkerUrl), __PDF_WASM_URL__: JSON.stringify(pdfWasmUrl) },
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
