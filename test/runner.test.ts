/**
 * The test runner (test/run.mjs) itself, on a folder of small uvu files: it
 * adds up passes, failures (a file that dies before its summary is one) and
 * skips (uvu's test.skip, as test/_skip.ts registers them), prints each skip
 * reason once on a line of its own, then "N skipped", and ends with exactly
 * "N passed, N failed", exiting 1 when anything failed. And the build's first
 * step (scripts/prune-dist.mjs), without which a deleted test would run on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './_setup.js';

// Under the checkout (in the ignored .tmp/), so the files find uvu in its node_modules.
fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const dir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'runner-'));
const skipHelper = JSON.stringify(path.join(ROOT, 'dist', 'test', '_skip.js'));
const REASON = 'widget tests skipped: no widget found; install one';

const FILES: Record<string, string> = {
  'a-pass.test.js': `import { test } from 'uvu'; test('one', () => {}); test('two', () => {}); test.run();`,
  'b-skip.test.js': `import { skippedTests } from ${skipHelper}; const test = skippedTests(${JSON.stringify(REASON)}); test.before(() => { throw new Error('a hook of skipped tests ran'); }); test('one', () => { throw new Error('ran'); }); test('two', () => { throw new Error('ran'); }); test.run();`,
  'c-mixed.test.js': `import { test } from 'uvu'; console.log(${JSON.stringify(`SKIP: ${REASON}`)}); test('runs', () => {}); test.skip('skipped', () => {}); test.run();`,
  'd-fail.test.js': `import { test } from 'uvu'; import * as assert from 'uvu/assert'; test('fails', () => assert.is(1, 2)); test.run();`,
  'e-dies.test.js': `console.log('about to die'); process.exit(3);`,
};

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

function runner(files: string[], filter?: string) {
  for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name));
  for (const name of files) fs.writeFileSync(path.join(dir, name), FILES[name]!);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'test', 'run.mjs'), ...(filter ? [filter] : []), '--dir', dir], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, lines: r.stdout.trimEnd().split('\n') };
}

test('passes, failures and skips are added up; each reason is said once on its own line, then "N skipped", then exactly "N passed, N failed"', () => {
  const { code, lines } = runner(Object.keys(FILES));
  assert.is(lines.at(-1), '3 passed, 2 failed', lines.join('\n'));
  assert.is(lines.at(-2), '3 skipped');
  assert.equal(lines.filter((l) => l === REASON), [REASON], 'the reason once, on a line of its own');
  assert.is(lines.at(-3), REASON);
  assert.ok(lines.some((l) => /^ok {3}b-skip\.test\.js {2}\(0 passed, 0 failed, 2 skipped, /.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^ok {3}c-mixed\.test\.js {2}\(1 passed, 0 failed, 1 skipped, /.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^FAIL d-fail\.test\.js {2}\(0 passed, 1 failed, /.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^FAIL e-dies\.test\.js {2}\(0 passed, 1 failed, /.test(l)), 'a file that dies before its summary is one failure');
  assert.is(code, 1);
});

test('skips alone do not fail the run; without any the count still says 0', () => {
  const skips = runner(['a-pass.test.js', 'b-skip.test.js']);
  assert.equal([skips.code, skips.lines.slice(-3)], [0, [REASON, '2 skipped', '2 passed, 0 failed']]);
  const none = runner(['a-pass.test.js']);
  assert.equal([none.code, none.lines.slice(-2)], [0, ['0 skipped', '2 passed, 0 failed']]);
});

test('the filter picks files by name; a filter that matches nothing is a failure, not a pass', () => {
  const picked = runner(Object.keys(FILES), 'a-pass');
  assert.equal([picked.code, picked.lines.at(-1)], [0, '2 passed, 0 failed']);
  const nothing = runner(Object.keys(FILES), 'no-such-file');
  assert.equal([nothing.code, nothing.lines.at(-1)], [1, '0 passed, 1 failed']);
});

test('the build first removes compiled files whose source is gone (tsc never deletes), and keeps the others', () => {
  const checkout = fs.mkdtempSync(path.join(ROOT, '.tmp', 'prune-'));
  const write = (file: string) => (fs.mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true }), fs.writeFileSync(path.join(checkout, file), ''));
  for (const file of ['src/kept.ts', 'test/kept.test.ts', 'dist/src/kept.js', 'dist/test/kept.test.js', 'dist/test/deleted.test.js', 'dist/src/old/gone.js', 'dist/src/notes.txt']) write(file);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'prune-dist.mjs'), checkout], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const left = fs.readdirSync(path.join(checkout, 'dist'), { recursive: true }).map(String).sort();
  assert.equal(left, ['src', 'src/kept.js', 'test', 'test/kept.test.js']);
  fs.rmSync(checkout, { recursive: true });
});

test.run();
