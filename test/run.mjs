#!/usr/bin/env node
// Runs every compiled uvu file (dist/test/**/*.test.js) in its own process, two
// at a time, and ends with the line CI reads: "N passed, N failed".
// A file that dies before printing its summary counts as one failure.
// Skips are counted from uvu's own summary (test.skip); a file says why it
// skips with a line "SKIP: <reason>" (test/_skip.ts), which is printed once,
// on a line of its own, before "N skipped" and the closing line.
//
//   node test/run.mjs [filter...] [--dir <folder of compiled tests>]   (a file runs when its path holds any filter)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dirAt = args.indexOf('--dir');
const testDir = dirAt >= 0 ? path.resolve(args.splice(dirAt, 2)[1] ?? '') : path.join(root, 'dist', 'test');
const filters = args.map((a) => a.replace(/^(dist\/)?test\//, ''));
const FILE_TIMEOUT_MS = 180_000;
const SKIP_LINE = /^SKIP: (.+)$/gm;

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.js') ? [full] : [];
  });
}

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [file], { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n  runner: killed after ${FILE_TIMEOUT_MS / 1000} s\n`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const total = /Total:\s+(\d+)/.exec(output);
      const passed = /Passed:\s+(\d+)/.exec(output);
      const skipped = /Skipped:\s+(\d+)/.exec(output);
      let pass = 0;
      let fail = 1;
      if (total && passed) {
        pass = Number(passed[1]);
        fail = Number(total[1]) - pass;
        if (code !== 0 && fail === 0) fail = 1; // exited badly after its summary
      }
      const reasons = [...output.matchAll(SKIP_LINE)].map((m) => m[1].trim());
      resolve({ file, pass, fail, skip: skipped ? Number(skipped[1]) : 0, reasons, output, ms: Date.now() - started });
    });
  });
}

// The filter matches the path below dist/test only: a checkout whose own path holds the word must not run everything.
const files = findTests(testDir).filter((f) => filters.length === 0 || filters.some((w) => path.relative(testDir, f).includes(w))).sort();
if (files.length === 0) {
  console.log(`no test files found under ${path.relative(root, testDir) || testDir} (run \`npm run build\` first)`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// The longest files start first (browser tests drive Chromium for a minute or more), so the
// workers end together instead of one finishing a long file alone at the end.
const long = (f) => /\.browser\.test\.js$|\/window-[^/]*\.test\.js$/.test(f);
const queue = [...files.filter(long), ...files.filter((f) => !long(f))];
const results = [];
const workers = Math.max(1, Math.min(os.availableParallelism?.() ?? 2, 4));
await Promise.all(
  Array.from({ length: workers }, async () => {
    while (queue.length) {
      const result = await runFile(queue.shift());
      results.push(result);
      const name = path.relative(testDir, result.file);
      const mark = result.fail ? 'FAIL' : 'ok  ';
      const skipped = result.skip ? `, ${result.skip} skipped` : '';
      console.log(`${mark} ${name}  (${result.pass} passed, ${result.fail} failed${skipped}, ${(result.ms / 1000).toFixed(1)} s)`);
      if (result.fail) console.log(result.output.replace(/^/gm, '    '));
    }
  }),
);
const passed = results.reduce((n, r) => n + r.pass, 0);
const failed = results.reduce((n, r) => n + r.fail, 0);
const skipped = results.reduce((n, r) => n + r.skip, 0);
for (const reason of new Set(results.flatMap((r) => r.reasons))) console.log(reason);
console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
