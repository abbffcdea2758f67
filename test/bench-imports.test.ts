/**
 * The bench scripts (bench/*.mjs) import the built code by path, outside the
 * type checker: a module moved or a function renamed breaks them silently
 * until someone runs a long measurement. Each path a script names is checked
 * to be a module of the project, and each name it takes from one to be
 * exported by it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './_import-graph.js';

const benchDir = path.join(ROOT, 'bench');
const scripts = fs.readdirSync(benchDir).filter((f) => f.endsWith('.mjs'));
/** A quoted `….js` naming built code: `dist/src/x.js`, `src/x.js` (through a `dist` helper) or `x.js` (through a `dist/src` helper). */
const MODULE_LITERAL = /['"]((?:dist\/)?(?:src|server|commands|test)\/[\w\-/.]+\.js|[\w\-]+\/[\w\-/.]+\.js)['"]/g;
/** `const { a, b: c } = await something('path.js')`. */
const DESTRUCTURED = /const \{([^}]+)\} = await [\w.]+\((?:path\.join\([^,]+, ?)?['"]([^'"]+\.js)['"]\)?\)/g;

function sourceOf(literal: string): string | null {
  const rel = literal.replace(/^dist\//, '').replace(/\.js$/, '');
  for (const candidate of [rel, `src/${rel}`]) {
    for (const ext of ['.ts', '.tsx']) if (fs.existsSync(path.join(ROOT, candidate + ext))) return candidate;
  }
  return null;
}

test('every module a bench script names is a module of the project', () => {
  const missing: string[] = [];
  let seen = 0;
  for (const script of scripts) {
    const text = fs.readFileSync(path.join(benchDir, script), 'utf8');
    for (const [, literal] of text.matchAll(MODULE_LITERAL)) {
      seen++;
      if (!sourceOf(literal)) missing.push(`${script}: ${literal}`);
    }
  }
  assert.ok(seen > 20, `the pattern finds the scripts' imports (${seen})`);
  assert.equal(missing, []);
});

test('every name a bench script takes from a module is exported by it', async () => {
  const absent: string[] = [];
  let taken = 0;
  for (const script of scripts) {
    const text = fs.readFileSync(path.join(benchDir, script), 'utf8');
    for (const [, names, literal] of text.matchAll(DESTRUCTURED)) {
      const source = sourceOf(literal);
      if (!source) continue; // the test above names it
      taken++;
      const mod = await import(pathToFileURL(path.join(ROOT, 'dist', `${source}.js`)).href);
      for (const name of names.split(',').map((n) => n.split(':')[0].trim()).filter(Boolean)) {
        if (!(name in mod)) absent.push(`${script}: ${name} from ${literal}`);
      }
    }
  }
  assert.ok(taken > 40, `the pattern finds the names taken (${taken})`);
  assert.equal(absent, []);
});

test.run();
