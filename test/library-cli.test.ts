import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { runImport } from '../commands/library/import.js';
import type { Io } from '../commands/lib/io.js';
import { shellWord } from '../commands/lib/hints.js';
import { tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';

const dirs = tempDirs();
const svc = (...args: string[]) => runCliInProcess(args, { env: dirs.env });
const src = path.join(dirs.root, 'src');
const parent = path.join(dirs.root, 'parent');

test.before(() => {
  fs.mkdirSync(src);
  fs.mkdirSync(parent);
  fs.writeFileSync(path.join(src, 'a.txt'), 'alpha\r\nbeta');
  fs.writeFileSync(path.join(src, 'a-copy.txt'), 'alpha\r\nbeta');
  fs.writeFileSync(path.join(src, 'paper.pdf'), '%PDF-1.5 body');
  fs.writeFileSync(path.join(src, 'bad.doc'), 'word');
  fs.writeFileSync(path.join(src, 'empty.md'), '');
});
test.after(() => dirs.cleanup());

test('without a vault, commands say how to make one (exit 3)', async () => {
  const r = await svc('library', 'list');
  assert.is(r.code, 3);
  assert.match(r.stderr, /svc library init/);
  const status = await svc('--json', 'library', 'status');
  assert.is(status.code, 0);
  assert.is(JSON.parse(status.stdout).configured, false);
});

test('init makes a missing folder first (svc library init ~/Papers)', async () => {
  const other = tempDirs();
  try {
    const papers = path.join(other.root, 'home', 'Papers');
    const r = await runCliInProcess(['library', 'init', papers], { env: other.env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, /Created .*Papers/);
    assert.match(fs.readdirSync(papers)[0]!, /^svc-library-/);
  } finally {
    other.cleanup();
  }
});

test('init creates the vault once', async () => {
  const r = await svc('library', 'init', parent);
  assert.is(r.code, 0, r.stderr);
  const [folder] = fs.readdirSync(parent);
  assert.match(folder!, /^svc-library-[0-9a-f-]{36}$/);
  const again = await svc('library', 'init', parent);
  assert.is(again.code, 4);
  assert.match(again.stderr, /cannot be switched/);
});

test('import: created, duplicate and each refusal explained; exit status of the first refusal', async () => {
  const files = ['a.txt', 'a-copy.txt', 'bad.doc', 'empty.md', 'paper.pdf'].map((n) => path.join(src, n));
  const r = await svc('library', 'import', ...files);
  assert.is(r.code, 2, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /^created\s+a\.txt\s+[0-9a-f-]{36}/);
  assert.match(lines[1]!, /^duplicate\s+a-copy\.txt\s+[0-9a-f-]{36} \(same bytes as a\.txt\)/);
  assert.match(lines[2]!, /^refused\s+bad\.doc\s+media_unsupported: /);
  assert.match(lines[3]!, /^refused\s+empty\.md\s+empty_file: /);
  assert.match(lines[4]!, /^created\s+paper\.pdf/);
  assert.match(r.stderr, /2 imported, 1 duplicate, 2 refused/);
  assert.not.match(r.stderr, /\[1\/5\]/, 'no progress when not on a terminal');
});

test('import --json prints one document; a duplicate reports the first entry', async () => {
  const r = await svc('--json', 'library', 'import', path.join(src, 'a.txt'), path.join(src, 'paper.pdf'));
  assert.is(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.counts, { created: 0, duplicate: 2, refused: 0 });
  assert.equal(doc.results.map((x: any) => x.outcome), ['duplicate', 'duplicate']);
  const refused = await svc('--json', 'library', 'import', path.join(src, 'bad.doc'));
  assert.is(refused.code, 2);
  const one = JSON.parse(refused.stdout); // exactly one JSON document even on failure
  assert.is(one.results[0].reason, 'media_unsupported');
});

test('a selection holds at most 20 files', async () => {
  const many = Array.from({ length: 21 }, (_, i) => {
    const file = path.join(src, `many-${i}.txt`);
    fs.writeFileSync(file, `file ${i}`);
    return file;
  });
  const r = await svc('library', 'import', ...many);
  assert.is(r.code, 2);
  assert.match(r.stderr, /at most 20 files/);
  const list = JSON.parse((await svc('--json', 'library', 'list', '--q', 'many-')).stdout);
  assert.is(list.items.length, 0, 'nothing of the selection was imported');
  assert.is((await svc('library', 'import', ...many.slice(0, 20))).code, 0);
});

test('list, show, link, text and export', async () => {
  const list = JSON.parse((await svc('--json', 'library', 'list', '--q', 'A.TXT')).stdout);
  assert.is(list.items.length, 1);
  const file = list.items[0];
  const human = await svc('library', 'list', '--limit', '2');
  assert.match(human.stdout, /^ID\s+FILE_ID\s+NAME/);
  assert.match(human.stderr, /more: svc library list --limit 2 --through \d+ --before \d+/);
  // The next page keeps the filter and the page size: without --q it would list other files.
  const filtered = await svc('--json', 'library', 'list', '--q', 'A', '--limit', '1');
  const hinted = await svc('library', 'list', '--q', 'A', '--limit', '1');
  const next = /^more: svc (library list --q A --limit 1 --through \d+ --before \d+)$/m.exec(hinted.stderr);
  assert.ok(next, hinted.stderr);
  const second = JSON.parse((await svc('--json', ...next![1]!.split(' '))).stdout);
  assert.is(second.items.length, 1);
  assert.match(second.items[0].original_name, /a/i, 'the next page is still filtered');
  assert.is.not(second.items[0].id, JSON.parse(filtered.stdout).items[0].id);
  assert.is(shellWord("it's here"), `'it'\\''s here'`, 'a hint with a quote or space pastes back as one word');

  const ctx = createContext({ env: dirs.env });
  const now = new Date().toISOString();
  const doc = Number(ctx.db.prepare('INSERT INTO documents (title, title_key, first_seen_at_utc, updated_at_utc) VALUES (?, ?, ?, ?)').run('T', 't', now, now).lastInsertRowid);
  await ctx.close();
  const link = await svc('library', 'link', file.file_id, String(doc));
  assert.is(link.code, 0, link.stderr);
  assert.match(link.stdout, /^linked/);
  assert.match((await svc('library', 'link', file.file_id, String(doc))).stdout, /^already linked/);
  assert.is((await svc('library', 'link', file.file_id, '999999')).code, 3);
  assert.is((await svc('library', 'show', file.file_id.toUpperCase())).code, 2);

  const byRowId = JSON.parse((await svc('--json', 'library', 'show', String(file.id))).stdout);
  assert.is(byRowId.file.file_id, file.file_id, 'show accepts the ID column list prints');
  const missing = await svc('library', 'show', '99999');
  assert.is(missing.code, 3);
  assert.match(missing.stderr, /svc library list/);
  assert.not.match(missing.stderr, /file_id/, 'worded for the command line');
  const show = await svc('library', 'show', file.file_id);
  assert.match(show.stdout, new RegExp(`paper_links\\s+${doc} \\(link\\)`));
  const text = await svc('library', 'text', file.file_id);
  assert.is(text.stdout, 'alpha\nbeta\n');
  const textJson = JSON.parse((await svc('--json', 'library', 'text', file.file_id)).stdout);
  assert.is(textJson.kind, 'svc-library-text');
  assert.is(textJson.line_count, 2);

  const out = path.join(dirs.root, 'inventory.json');
  const exported = await svc('library', 'export', '-o', out);
  assert.is(exported.code, 0, exported.stderr);
  const inventory = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.is(inventory.kind, 'svc-library-inventory');
  assert.ok(inventory.files.some((f: any) => f.file_id === file.file_id && f.paper_links[0].document_id === doc));
  assert.not.ok(fs.readFileSync(out, 'utf8').includes(parent));
});

test('a second init is refused before it makes any folder', async () => {
  const fresh = path.join(dirs.root, 'not-yet');
  const r = await svc('library', 'init', fresh);
  assert.is(r.code, 4);
  assert.match(r.stderr, /svc library status/);
  assert.not.ok(fs.existsSync(fresh), 'the refused init left no folder behind');
});

test('refusals say what to do next', async () => {
  fs.writeFileSync(path.join(src, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  fs.writeFileSync(path.join(src, 'page.pdf'), '<html>not a pdf</html>');
  const r = await svc('--json', 'library', 'import', path.join(src, 'latin1.txt'), path.join(src, 'page.pdf'), src, path.join(src, 'absent.txt'));
  const why = Object.fromEntries(JSON.parse(r.stdout).results.map((x: any) => [x.reason, x.message]));
  assert.match(why.not_utf8, /save it as UTF-8/);
  assert.match(why.pdf_envelope_missing, /not a PDF .*import that/);
  assert.match(why.source_not_file, /a folder\?/);
  assert.match(why.source_missing, /check the path/);
  // A path that is not there is refused input (422, exit 2) as svc-library(1) lists it, not "no such Library file" (exit 3).
  const absent = await svc('--json', 'library', 'import', path.join(src, 'absent.txt'));
  assert.is(absent.code, 2, absent.stdout);
  assert.is(JSON.parse(absent.stdout).results[0].status, 422);
  const noPaper = await svc('library', 'import', path.join(src, 'a.txt'), path.join(src, 'paper.pdf'), '--document', '987654');
  assert.is(noPaper.code, 3);
  assert.is(noPaper.stdout, '', 'refused once, before any file');
  assert.match(noPaper.stderr, /No paper with id 987654; `svc explore` lists the papers in the corpus\./);
  const pdf = JSON.parse((await svc('--json', 'library', 'list', '--q', 'paper.pdf')).stdout).items[0];
  assert.match((await svc('library', 'list', '--q', 'no-such-name')).stdout, /^No file name contains "no-such-name"\.$/m);
  const text = await svc('library', 'text', pdf.file_id);
  assert.is(text.code, 2);
  assert.match(text.stderr, /svc evidence read PROJECT FILE --page N/);
  const version = await svc('library', 'show', pdf.version_id);
  assert.is(version.code, 3);
  assert.ok(version.stderr.includes(`is the version_id of paper.pdf, not a file_id; name the file by its file_id ${pdf.file_id}`), version.stderr);
});

test('export -o: a 0600 file, never over an existing one without --force, never through a link; a missing folder is said plainly', async () => {
  const out = path.join(dirs.root, 'inv-out.json');
  const first = await svc('library', 'export', '-o', out);
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Wrote .*inv-out\.json \([\d,]+ files?, [\d,]+ bytes?, sha256 [0-9a-f]{64}\)$/m);
  assert.is(fs.statSync(out).mode & 0o777, 0o600);
  fs.writeFileSync(out, 'keep');
  const again = await svc('--json', 'library', 'export', '-o', out);
  assert.is(again.code, 2);
  assert.is(JSON.parse(again.stdout).error, 'output_exists');
  assert.match(JSON.parse(again.stdout).message, /--force/);
  assert.is(fs.readFileSync(out, 'utf8'), 'keep');
  const forced = JSON.parse((await svc('--json', 'library', 'export', '-o', out, '--force')).stdout);
  assert.is(forced.sha256, crypto.createHash('sha256').update(fs.readFileSync(out)).digest('hex'));
  assert.is(JSON.parse(fs.readFileSync(out, 'utf8')).file_count, forced.file_count);
  const link = path.join(dirs.root, 'inv-link.json');
  fs.symlinkSync(path.join(dirs.root, 'elsewhere.json'), link);
  const through = await svc('library', 'export', '-o', link, '--force');
  assert.is(through.code, 2);
  assert.not.ok(fs.existsSync(path.join(dirs.root, 'elsewhere.json')), 'nothing written through the link');
  const nowhere = await svc('library', 'export', '-o', path.join(dirs.root, 'no', 'such', 'x.json'));
  assert.is(nowhere.code, 2);
  assert.match(nowhere.stderr, /its folder does not exist/);
  assert.not.match(nowhere.stderr, /ENOENT/);
});

test('check: exit 0 when clean; problems listed with exit 4, one JSON document, nothing changed', async () => {
  const clean = await svc('library', 'check');
  assert.is(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /\d+ files? checked: all as recorded/);
  const root = path.join(parent, fs.readdirSync(parent)[0]!);
  const orphanDir = path.join(root, 'files', '11111111-1111-4111-8111-111111111111');
  fs.mkdirSync(orphanDir);
  fs.writeFileSync(path.join(orphanDir, 'stray.pdf'), '%PDF-1.4');
  const r = await svc('--json', 'library', 'check');
  assert.is(r.code, 4);
  const report = JSON.parse(r.stdout);
  assert.is(report.ok, false);
  assert.equal(report.problems.map((p: any) => [p.kind, p.path]), [['orphan', 'files/11111111-1111-4111-8111-111111111111/stray.pdf']]);
  assert.ok(fs.existsSync(path.join(orphanDir, 'stray.pdf')), 'check removes nothing');
  assert.match(r.stderr, /^To fix: move the named files out of the vault folder/m);
  const blocked = await svc('library', 'import', path.join(src, 'many-0.txt'));
  assert.match(blocked.stdout, /import_blocked_orphans/);
  fs.rmSync(orphanDir, { recursive: true });
});

test('on a terminal, import shows a progress counter on stderr', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => void out.push(t), write: (t) => void out.push(t), err: (t) => void err.push(t), readStdin: async () => '', stdoutIsTTY: true, stdinIsTTY: true, env: dirs.env, json: false };
  const files = [0, 1, 2].map((i) => {
    const file = path.join(src, `tty-${i}.md`);
    fs.writeFileSync(file, `# tty ${i}`);
    return file;
  });
  const ctx = createContext({ env: dirs.env });
  try {
    await runImport(ctx, io, files, undefined);
  } finally {
    await ctx.close();
  }
  assert.equal(err.slice(0, 3), ['[1/3] tty-0.md', '[2/3] tty-1.md', '[3/3] tty-2.md']);
  assert.match(out.join('\n'), /created\s+tty-2\.md/);
});

test.run();
