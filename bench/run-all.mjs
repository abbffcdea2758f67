#!/usr/bin/env node
// `npm run bench` lists the benchmarks with what each measures (the first line of its
// header comment); `npm run bench -- <name> [args…]` runs one after `npm run build`.
// They are not run all at once: several take many minutes at their default sizes
// (a million papers or vectors), and their figures only mean something on a quiet
// machine. Each writes its figures on stdout; bench/<name>.results.txt keeps past runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const benches = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_') && f !== 'run-all.mjs')
  .map((f) => f.slice(0, -'.mjs'.length))
  .sort();

/** The first comment line after the shebang: what the bench measures. */
function summary(name) {
  const lines = fs.readFileSync(path.join(here, `${name}.mjs`), 'utf8').split('\n');
  const first = lines.find((l) => /^\s*(\/\/|\*)\s*\S/.test(l) && !l.startsWith('#!'));
  return first ? first.replace(/^\s*(\/\/|\/?\*+)\s*/, '').trim() : '';
}

const [name, ...rest] = process.argv.slice(2);
if (!name) {
  console.log('Benchmarks (run one with `npm run bench -- <name> [args]`, after `npm run build`):');
  const width = Math.max(...benches.map((b) => b.length));
  for (const b of benches) console.log(`  ${b.padEnd(width)}  ${summary(b)}`);
  process.exit(0);
}
if (!benches.includes(name)) {
  console.error(`No benchmark called "${name}"; \`npm run bench\` lists them.`);
  process.exit(2);
}
const run = spawnSync(process.execPath, [path.join(here, `${name}.mjs`), ...rest], { stdio: 'inherit' });
process.exit(run.status ?? 1);
