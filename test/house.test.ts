/** The house's walls: which room may lean on which, and file names that say their room. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './_setup.js';

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

test('the scheduler is cron plus an on-due callback: it imports nothing from routines, calendar or executions', () => {
  for (const file of filesUnder('src/scheduler')) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    assert.not.match(text, /from '\.\.\/(routines|calendar|executions)\//, file);
  }
});

test('no two files in src/ share the names that used to clash (catalog, identity)', () => {
  const names = filesUnder('src').concat(filesUnder('server')).map((f) => path.basename(f));
  for (const name of ['catalog.ts', 'identity.ts']) assert.ok(names.filter((n) => n === name).length <= 1, name);
});

test('commands/ holds commands only: helpers live in commands/lib/', () => {
  for (const file of fs.readdirSync(path.join(ROOT, 'commands')).filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(ROOT, 'commands', file), 'utf8');
    assert.ok(file === 'main.ts' || /export (async )?function (register|addCommand|runImport)\b/.test(text), `${file} is a command (or part of one)`);
  }
});

test('provenance records are read through PROVENANCE_RECORD_JSON: a row may hold a patch against its document (migration 32)', () => {
  // Only the writer (merge), the patch maker and the reader that defines the expression touch the column itself.
  const writers = new Set(['src/corpus/merge.ts', 'src/corpus/provenance-record.ts', 'src/corpus/repo.ts']);
  for (const file of filesUnder('src').filter((f) => !f.startsWith(path.join('src', 'db', 'migrations')) && !writers.has(f))) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    // In SQL text only (a string holding SELECT), the column named other than as the expression's alias.
    const sql = text.match(/`[^`]*`|'[^'\n]*'|"[^"\n]*"/g)?.filter((q) => /\bSELECT\b/i.test(q)) ?? [];
    const raw = sql.filter((q) => /\brecord_json\b/.test(q.replace(/\bAS record_json\b/g, '')));
    assert.equal(raw, [], `${file} reads document_sources.record_json without PROVENANCE_RECORD_JSON`);
  }
});

test('browser tests wait on the page with functions, never strings: a string is evaluated at every poll, and the window\'s CSP refuses that', () => {
  const tests = fs.readdirSync(path.join(ROOT, 'test')).filter((f) => f.endsWith('.ts'));
  const strings = tests.filter((f) => /waitForFunction\(\s*['"`]/.test(fs.readFileSync(path.join(ROOT, 'test', f), 'utf8')));
  assert.equal(strings, [], 'these pass waitForFunction a string');
});

test.run();
