import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { createContext } from '../src/context.js';
import { tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { makePdf } from './_pdf.js';

const dirs = tempDirs();
const svc = (...args: string[]) => runCliInProcess(args, { env: dirs.env });
const json = async (...args: string[]) => {
  const r = await svc('--json', ...args);
  if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.code} ${r.stdout} ${r.stderr}`);
  return JSON.parse(r.stdout);
};
let project = '';
let txt = '';
let pdf = '';

test.before(async () => {
  const parent = path.join(dirs.root, 'parent');
  fs.mkdirSync(parent);
  fs.writeFileSync(path.join(dirs.root, 'a.txt'), 'Intro 𝐀𝐁 line\r\nThe claim here.\n');
  fs.writeFileSync(path.join(dirs.root, 'b.pdf'), makePdf(['PDF page one', { lines: ['two a', 'two b'] }]));
  await json('library', 'init', parent);
  await svc('library', 'import', path.join(dirs.root, 'a.txt'), path.join(dirs.root, 'b.pdf'));
  const files = (await json('library', 'list')).items;
  txt = files.find((f: any) => f.original_name === 'a.txt').file_id;
  pdf = files.find((f: any) => f.original_name === 'b.pdf').file_id;
});
test.after(() => dirs.cleanup());

test('without a vault, evidence commands say how to make one in command-line words', async () => {
  const other = tempDirs();
  try {
    const r = await runCliInProcess(['evidence', 'list'], { env: other.env });
    assert.is(r.code, 3);
    assert.match(r.stderr, /No Library vault yet: create one with `svc library init <folder>`/);
    assert.not.match(r.stderr, /POST \/api/);
  } finally {
    other.cleanup();
  }
});

test('empty states say what to do next', async () => {
  const none = await svc('evidence', 'list');
  assert.is(none.code, 0);
  assert.match(none.stdout, /^No evidence projects yet; create one with `svc evidence new NAME`\.$/m);
  const empty = (await json('evidence', 'new', 'Empty')).project.project_id;
  const shown = await svc('evidence', 'show', empty);
  assert.match(shown.stdout, new RegExp(`No files yet; add one with \`svc evidence add ${empty} FILE\``));
});

test('new, add (repeat is a no-op), show', async () => {
  project = (await json('evidence', 'new', 'CLI project')).project.project_id;
  assert.is((await json('evidence', 'add', project, txt)).changed, true);
  assert.is((await json('evidence', 'add', project, pdf)).changed, true);
  const again = await json('evidence', 'add', project, pdf);
  assert.is(again.changed, false);
  assert.is(again.project.revision, 3);
  const shown = await json('evidence', 'show', project);
  assert.equal(shown.counts, { files: 2, notes: 0 });
  assert.is(shown.files.items.length, 2);
});

test('read prints each line with its codepoint range; a PDF page too', async () => {
  const r = await svc('evidence', 'read', project, txt);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /\[0, 13\)\s+Intro 𝐀𝐁 line/);
  assert.match(r.stdout, /\[14, 29\)\s+The claim here\./);
  const p = await svc('evidence', 'read', project, pdf, '--page', '2');
  assert.match(p.stdout, /pdfjs-dist-5\.6\.205\/plain-lf\/v1/);
  assert.match(p.stdout, /\[6, 11\)\s+two b/);
  const bad = await svc('evidence', 'read', project, pdf, '--page', '0');
  assert.is(bad.code, 2);
  const past = await svc('--json', 'evidence', 'read', project, pdf, '--page', '3');
  assert.is(past.code, 2);
  assert.is(JSON.parse(past.stdout).error, 'page_out_of_range');
  // Far past the end (and past the reader's 200-page bound) is the same kind of answer as one past it.
  const far = await svc('--json', 'evidence', 'read', project, pdf, '--page', '999');
  assert.equal([far.code, JSON.parse(far.stdout)], [past.code, JSON.parse(past.stdout)]);
  assert.match(JSON.parse(far.stdout).message, /^The file has 2 pages; ask for a page from 1 to 2\.$/);
});

test('note add: a passage from the printed offsets (past astral characters), a plain note; edit; notes', async () => {
  const passage = await json('evidence', 'note', 'add', project, txt, '--start', '18', '--end', '23', '--body', 'the claim');
  assert.is(passage.note.anchor.quote, 'claim');
  assert.is(passage.note.anchor.extraction_contract, 'library-text-lf/v1');
  const onPdf = await json('evidence', 'note', 'add', project, pdf, '--page', '2', '--start', '0', '--end', '5');
  assert.is(onPdf.note.anchor.quote, 'two a');
  assert.is(onPdf.note.body, '');
  const plain = await json('evidence', 'note', 'add', project, txt, '--body', 'first');
  const edited = await json('evidence', 'note', 'edit', project, String(plain.note.note_id), '--body', 'second');
  assert.is(edited.note.revision, 2);
  const notes = await json('evidence', 'notes', project, '--file', txt);
  assert.equal(notes.items.map((n: any) => n.kind), ['passage', 'plain']);
  // A page of one: the hint is the whole command, keeping --file, --limit and the first page's ceiling.
  const paged = await svc('evidence', 'notes', project, '--file', txt, '--limit', '1');
  const next = new RegExp(`^more: svc (evidence notes ${project} --file ${txt} --limit 1 --through \\d+ --after \\d+)$`, 'm').exec(paged.stderr);
  assert.ok(next, paged.stderr);
  const second = await json(...next![1]!.split(' '));
  assert.equal(second.items.map((n: any) => n.kind), ['plain'], 'the next page of the same file');
  assert.is(second.has_more, false);
  const empty = await svc('evidence', 'note', 'add', project, txt);
  assert.is(empty.code, 2);
  // An empty --body: its own reason, and one line that says what to give.
  const blank = await svc('evidence', 'note', 'add', project, txt, '--body', ' ');
  assert.is(blank.code, 2);
  assert.equal(blank.stderr.trim().split('\n').length, 1, blank.stderr);
  assert.match(blank.stderr, /A plain note needs text: give --body TEXT, not empty or only whitespace/);
  const blankJson = await svc('--json', 'evidence', 'note', 'add', project, txt, '--body', '');
  assert.is(JSON.parse(blankJson.stdout).error, 'body_empty');
  const blankEdit = await svc('evidence', 'note', 'edit', project, String(plain.note.note_id), '--body', '');
  assert.equal([blankEdit.code, /give --body TEXT/.test(blankEdit.stderr)], [2, true], blankEdit.stderr);
  const stale = await svc('--json', 'evidence', 'rename', project, 'Other', '--revision', '1');
  assert.is(stale.code, 4);
  assert.is(JSON.parse(stale.stdout).error, 'revision_conflict');
  // Any word may be a project's name: one no project has is not found (exit 3), not malformed.
  const badId = await svc('evidence', 'show', 'not-a-uuid');
  assert.is(badId.code, 3);
});

test('read shows the passages saved on the page as highlights; one saved on other page text is named, never re-anchored', async () => {
  // By now page 2 of the PDF holds the passage "two a" [0, 5) (an empty body); page 1 holds none.
  const r = await svc('evidence', 'read', project, pdf, '--page', '2');
  assert.match(r.stdout, /^Saved passages on this page \(1\):\n {2}#(\d+) \[0, 5\) “two a”$/m);
  const onPage1 = await json('evidence', 'read', project, pdf, '--page', '1');
  assert.equal([onPage1.highlights, onPage1.not_highlighted], [[], []]);
  const noteId = Number(/#(\d+) \[0, 5\)/.exec(r.stdout)![1]);
  // The same note as if saved on other text of this page (a changed extraction): named, not highlighted.
  const ctx = createContext({ env: dirs.env });
  ctx.db.prepare('UPDATE evidence_notes SET page_sha256 = ? WHERE id = ?').run('f'.repeat(64), noteId);
  await ctx.close();
  const moved = await json('evidence', 'read', project, pdf, '--page', '2');
  assert.equal(moved.highlights, []);
  assert.equal(moved.not_highlighted, [{ note_id: noteId, start: 0, end: 5, reason: 'page_hash_mismatch' }]);
  assert.match((await svc('evidence', 'read', project, pdf, '--page', '2')).stdout, new RegExp(`#${noteId} \\[0, 5\\) not highlighted: saved on other text of this page`));
});

test('bundle writes a verified ZIP and never overwrites', async () => {
  const out = path.join(dirs.root, 'bundle.zip');
  const r = await json('evidence', 'bundle', project, txt, pdf, '--files', '-o', out);
  assert.is(r.mode, 'files');
  const names = await new Promise<string[]>((resolve, reject) =>
    yauzl.open(out, { lazyEntries: false }, (err, zip) => {
      if (err || !zip) return reject(err);
      const seen: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => seen.push(e.fileName));
      zip.on('end', () => resolve(seen));
    }),
  );
  assert.is(names.length, 4);
  assert.ok(names.includes('manifest.json') && names.includes('notes.md'));
  const again = await svc('evidence', 'bundle', project, txt, '-o', out);
  assert.is(again.code, 2);
  assert.match(again.stderr, /already exists/);
});

test('files are named by the ID or FILE_ID of `svc library list`; a version_id or a non-member says what to use', async () => {
  const rows = (await json('library', 'list')).items;
  const pdfRow = rows.find((f: any) => f.file_id === pdf);
  const byId = await json('evidence', 'read', project, String(pdfRow.id));
  assert.is(byId.file_id, pdf, 'the ID column names the same file');
  const other = (await json('evidence', 'new', 'Second')).project.project_id;
  const added = await json('evidence', 'add', other, String(pdfRow.id));
  assert.is(added.file_id, pdf);
  const note = await json('evidence', 'note', 'add', other, String(pdfRow.id), '--body', 'by id');
  assert.is(note.note.file_id, pdf);
  const notes = await json('evidence', 'notes', other, '--file', String(pdfRow.id));
  assert.is(notes.items.length, 1);
  const version = await svc('evidence', 'read', project, pdfRow.version_id);
  assert.is(version.code, 3);
  assert.ok(version.stderr.includes(`is the version_id of b.pdf, not a file_id; name the file by its file_id ${pdf}`), version.stderr);
  const word = await svc('evidence', 'add', project, 'paper');
  assert.is(word.code, 2);
  assert.match(word.stderr, /the ID \(a number\) or FILE_ID/);
  const txtRow = rows.find((f: any) => f.file_id === txt);
  const outside = await svc('evidence', 'read', other, String(txtRow.id));
  assert.is(outside.code, 4);
  assert.ok(outside.stderr.includes(`not in this project; add it with \`svc evidence add ${other} FILE\``), `the project as typed: ${outside.stderr}`);
});

test('an image-only page reads as plainly no text, exit 0; a passage on it is refused saying a plain note can be made', async () => {
  fs.writeFileSync(path.join(dirs.root, 'scan.pdf'), makePdf(['Text page', { image: true }]));
  const imported = await json('library', 'import', path.join(dirs.root, 'scan.pdf'));
  const scan = imported.results[0].file_id;
  await json('evidence', 'add', project, scan);
  const r = await svc('evidence', 'read', project, scan, '--page', '2');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /· no_text ·/);
  assert.match(r.stdout, /No text could be extracted from this page \(an image-only or scanned page\?\)\. That is not evidence the page is empty/);
  assert.not.match(r.stdout, /\[0, 0\)/);
  const j = JSON.parse((await svc('--json', 'evidence', 'read', project, scan, '--page', '2')).stdout);
  assert.is(j.status, 'no_text');
  const passage = await svc('evidence', 'note', 'add', project, scan, '--page', '2', '--start', '0', '--end', '1');
  assert.is(passage.code, 4);
  assert.match(passage.stderr, /no extractable text .*a plain note \(no anchor\) can be/);
  fs.writeFileSync(path.join(dirs.root, 'locked.pdf'), makePdf(['secret'], { encrypt: true }));
  const locked = (await json('library', 'import', path.join(dirs.root, 'locked.pdf'))).results[0].file_id;
  await json('evidence', 'add', project, locked);
  const enc = await svc('evidence', 'read', project, locked);
  assert.is(enc.code, 1);
  assert.match(enc.stdout, /· unsupported \(encrypted\) ·/);
  assert.match(enc.stdout, /save an unencrypted copy \(e\.g\. print to PDF\) and import that/);
  const encNote = await svc('evidence', 'note', 'add', project, locked, '--start', '0', '--end', '2');
  assert.is(encNote.code, 4);
  assert.ok(encNote.stderr.includes(`could not be read (unsupported: encrypted), so no passage can be anchored on it; \`svc evidence read ${project} ${locked} --page 1\` says why`), encNote.stderr);
  const past = await svc('evidence', 'read', project, scan, '--page', '3');
  assert.is(past.code, 2);
  assert.match(past.stderr, /The file has 2 pages; ask for a page from 1 to 2\./);
});

test('revision conflicts are worded with the flags and the command that shows the current state', async () => {
  const stale = await svc('evidence', 'rename', project, 'Other', '--revision', '1');
  assert.is(stale.code, 4);
  assert.match(stale.stderr, /it is at revision \d+ now/);
  assert.ok(stale.stderr.includes(`\`svc evidence show ${project}\` shows it`), `the project as typed: ${stale.stderr}`);
  assert.not.match(stale.stderr, /expected_revision/);
  // A project typed by a name with spaces is given back as one shell argument.
  const named = JSON.parse((await svc('--json', 'evidence', 'show', project)).stdout).project.name;
  const byName = await svc('evidence', 'rename', named, 'Other', '--revision', '1');
  assert.is(byName.code, 4);
  assert.ok(byName.stderr.includes(`\`svc evidence show '${named}'\` shows it`), byName.stderr);
  const plain = await json('evidence', 'note', 'add', project, txt, '--body', 'one');
  await json('evidence', 'note', 'edit', project, String(plain.note.note_id), '--body', 'two');
  const noteStale = await svc('evidence', 'note', 'edit', project, String(plain.note.note_id), '--body', 'three', '--note-revision', '1');
  assert.is(noteStale.code, 4);
  assert.match(noteStale.stderr, /at revision 2 now, not the --note-revision given/);
});

test('bundle -o into a missing folder names that folder, not an internal spool path', async () => {
  const r = await svc('evidence', 'bundle', project, txt, '-o', path.join(dirs.root, 'nope', 'b.zip'));
  assert.is(r.code, 2);
  assert.match(r.stderr, /its folder does not exist/);
  assert.not.match(r.stderr, /spool|ENOENT/);
  const out = path.join(dirs.root, 'mode.zip');
  const written = await svc('evidence', 'bundle', project, txt, '-o', out);
  assert.is(written.code, 0);
  assert.match(written.stdout, /metadata only: the file bytes were not checked \(--files includes and verifies them\)/);
  assert.is(fs.statSync(out).mode & 0o777, 0o600);
});

test('a project is named by its ID (the number svc evidence list prints), its PROJECT_ID or its exact name, wherever a command takes one', async () => {
  const listed = await svc('evidence', 'list');
  const rows = (await json('evidence', 'list')).items as { id: number; project_id: string; name: string }[];
  const cli = rows.find((p) => p.project_id === project)!;
  assert.match(listed.stdout, new RegExp(`^ID +PROJECT_ID +REV +NAME\n(.*\n)*${cli.id} +${project} +\\d+ +CLI project$`, 'm'), listed.stdout);
  for (const ref of [String(cli.id), 'CLI project', ' CLI project ', project]) {
    const shown = await json('evidence', 'show', ref);
    assert.is(shown.project.project_id, project, ref);
  }
  assert.is((await json('evidence', 'notes', 'CLI project')).items.length > 0, true);
  assert.is((await json('evidence', 'read', String(cli.id), txt)).file_id, txt);
  const renamed = await json('evidence', 'rename', String(cli.id), 'CLI project renamed');
  assert.is(renamed.project.name, 'CLI project renamed');
  assert.is((await json('evidence', 'rename', 'CLI project renamed', 'CLI project')).project.project_id, project);
  const unknown = await svc('evidence', 'show', 'No such project');
  assert.equal([unknown.code, unknown.stderr.trim()], [3, 'svc: No evidence project "No such project" in this vault; `svc evidence list` shows each one\'s ID, PROJECT_ID and NAME.']);
  assert.is((await svc('evidence', 'show', '9999')).code, 3);
  await json('evidence', 'new', 'Twin');
  await json('evidence', 'new', 'Twin');
  const twins = (await json('evidence', 'list')).items.filter((p: { name: string }) => p.name === 'Twin').map((p: { id: number }) => p.id);
  const shared = await svc('evidence', 'show', 'Twin');
  assert.equal([shared.code, shared.stderr.trim()], [2, `svc: 2 evidence projects are called "Twin" (IDs ${twins.join(', ')}); name one by its ID.`]);
  const bad = await svc('evidence', 'show', 'two\nlines');
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /A project is named by the ID, PROJECT_ID or NAME `svc evidence list` prints \(a name: 1 to 120 characters, one line\)/);
});

test('--help says where each id comes from', async () => {
  const read = await svc('evidence', 'read', '--help');
  assert.match(read.stdout + read.stderr, /project\s+its ID, PROJECT_ID or exact NAME from `svc evidence list`/);
  assert.match(read.stdout + read.stderr, /file\s+the ID or FILE_ID `svc library list` prints/);
  const show = await svc('answer', 'show', '--help');
  assert.match(show.stdout + show.stderr, /answer_id\s+the ANSWER_ID `svc answer list PROJECT` prints/);
});

test('evidence has a man page', () => {
  const page = fs.readFileSync(new URL('../../man/svc-evidence.1', import.meta.url), 'utf8');
  assert.match(page, /EXIT STATUS/);
});

test.run();
