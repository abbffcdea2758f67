#!/usr/bin/env node
// `npm run build`'s first step: tsc writes dist/ but never deletes from it, so
// a source removed or renamed would live on there (a deleted test would keep
// running). This removes each compiled file whose .ts source is gone, and
// leaves the others for tsc to overwrite, so a server or a test run of this
// checkout keeps its modules while the build runs.
//
//   node scripts/prune-dist.mjs [checkout]   (default: the one holding this script)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const dist = path.join(root, 'dist');

function prune(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      continue;
    }
    const source = path.join(root, path.relative(dist, full)).replace(/\.js$/, '.ts');
    if (!entry.name.endsWith('.js') || !fs.existsSync(source)) fs.rmSync(full);
  }
}

if (fs.existsSync(dist)) prune(dist);
