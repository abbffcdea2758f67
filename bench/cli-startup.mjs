#!/usr/bin/env node
// `svc --help` cold start: median of 10 runs (target: under 100 ms here),
// next to a bare `node -e ""` for scale. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 10);

function median(args) {
  const times = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6); // first run warms the disk cache
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const bare = median(['-e', '']);
const help = median([path.join(root, 'bin', 'svc.js'), '--help']);
const version = median([path.join(root, 'bin', 'svc.js'), '--version']);
console.log(`node -e ""        median ${bare.toFixed(1)} ms`);
console.log(`svc --help        median ${help.toFixed(1)} ms   (target < 100 ms)`);
console.log(`svc --version     median ${version.toFixed(1)} ms`);
