/**
 * No tracked file keeps a merge's conflict markers: a man page or README with
 * them still renders (the markers are plain text), so no other test notices.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './_setup.js';

test('no tracked text file holds a conflict marker line', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  const marked: string[] = [];
  for (const file of files) {
    if (!/\.(ts|tsx|mjs|js|json|md|1|css|html|tsv|sh)$|^\.ci\//.test(file)) continue;
    const full = path.join(ROOT, file);
    if (!fs.existsSync(full)) continue;
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^(<{7} |>{7} |={7}$)/.test(line)) marked.push(`${file}:${i + 1}`);
    });
  }
  assert.equal(marked, []);
});

test.run();
