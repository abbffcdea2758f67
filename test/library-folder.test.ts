/**
 * The Library vault can be found and checked from the command line: `svc
 * library status` names the vault folder's absolute path (the person's own
 * information on their own terminal; GET /api/library keeps hiding it) and
 * whether it is reachable. With the folder gone, status exits 1 and every
 * Library command says the ways back the spec allows (put the folder back, or
 * restore a backup under a parent you name); while a restore is staged, the
 * commands say it waits for the next start instead of inviting a new vault.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startLibraryServer, type LibraryServer } from './_library.js';

const WAYS_BACK = /Ways back: put the vault folder back where it was \(reconnect its drive\), or restore a backup that holds it with `svc restore FILE --vault-parent DIR`/;

test('status names the vault folder and says whether it is reachable; with the folder gone it exits 1 and every Library command says the ways back', async () => {
  let s: LibraryServer | undefined;
  try {
    s = await startLibraryServer();
    const env = s.t.dirs.env;
    const svc = (...args: string[]) => runCliInProcess(args, { env });
    const note = path.join(s.t.dirs.root, 'note.txt');
    fs.writeFileSync(note, 'a note\n');
    assert.is((await svc('library', 'import', note)).code, 0);

    const here = await svc('library', 'status');
    assert.is(here.code, 0, here.stderr);
    assert.ok(here.stdout.includes(`folder ${s.root}: reachable`), here.stdout);
    const doc = JSON.parse((await svc('--json', 'library', 'status')).stdout);
    assert.equal(doc.folder, { path: s.root, reachable: true, reason: null, message: null });
    // The HTTP answer keeps hiding the absolute root, as the spec says.
    const http = await s.get('/api/library');
    assert.is(http.status, 200);
    assert.not.ok(http.text.includes(s.parent) || http.text.includes(s.root), http.text);

    fs.renameSync(s.root, `${s.root}.moved`);
    const gone = await svc('library', 'status');
    assert.is(gone.code, 1, 'status fails when the folder is gone, not "1 file, … bytes" and exit 0');
    assert.ok(gone.stdout.includes(`folder ${s.root}: missing or not reachable`), gone.stdout);
    assert.ok(gone.stderr.includes(`The Library vault folder ${s.root} is missing or not reachable.`), gone.stderr);
    assert.match(gone.stderr, WAYS_BACK);
    const goneDoc = JSON.parse((await svc('--json', 'library', 'status')).stdout).folder;
    assert.equal({ ...goneDoc, message: undefined }, { path: s.root, reachable: false, reason: 'vault_unavailable', message: undefined });
    assert.match(goneDoc.message, /Ways back: .*svc restore FILE --vault-parent DIR/);

    // The commands that need the folder refuse with the same words (exit 1, the file system failing).
    for (const args of [['library', 'text', '1'], ['library', 'check'], ['library', 'import', note]]) {
      const r = await svc(...args);
      assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.ok(r.stderr.includes(s.root), `${args.join(' ')} names the folder: ${r.stderr}`);
      assert.match(r.stderr, WAYS_BACK, args.join(' '));
    }
    // Those that read only the catalog still answer, and say it too.
    for (const args of [['library', 'list'], ['library', 'show', '1'], ['library', 'export']]) {
      const r = await svc(...args);
      assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, WAYS_BACK, args.join(' '));
    }
    // Over HTTP the refusal says the ways back without any path.
    const refused = await s.importBytes('b.txt', 'other');
    assert.is(refused.status, 409);
    assert.is(refused.json().detail.reason, 'vault_unavailable');
    assert.match(refused.json().detail.message, /Put it back where it was, or restore a backup that holds it/);
    assert.not.ok(refused.text.includes(s.parent), refused.text);

    fs.renameSync(`${s.root}.moved`, s.root);
    assert.is((await svc('library', 'status')).code, 0, 'back where it was: reachable again');
    assert.is((await svc('library', 'text', '1')).stdout, 'a note\n');
  } finally {
    await s?.close();
  }
});

test('GET /api/library says whether the vault folder is reachable, and with it gone the reason and what to do, never its path', async () => {
  let s: LibraryServer | undefined;
  try {
    s = await startLibraryServer();
    const here = await s.get('/api/library');
    assert.is(here.status, 200, here.text);
    assert.equal(here.json().folder, { reachable: true, reason: null, message: null });

    fs.renameSync(s.root, `${s.root}.moved`);
    const gone = await s.get('/api/library');
    assert.is(gone.status, 200, 'the status still answers what the catalog records');
    const folder = gone.json().folder;
    assert.is(folder.reachable, false);
    assert.is(folder.reason, 'vault_unavailable');
    assert.match(folder.message, /Put it back where it was, or restore a backup that holds it/);
    assert.not.ok(gone.text.includes(s.parent) || gone.text.includes(s.root), gone.text);
    assert.is(gone.json().counts.files, 0);

    fs.renameSync(`${s.root}.moved`, s.root);
    assert.is((await s.get('/api/library')).json().folder.reachable, true, 'back where it was');
  } finally {
    await s?.close();
  }
});

test('init with a relative folder says the absolute path it makes the vault in; a quoted ~ is refused before any folder is made', async () => {
  const dirs = tempDirs();
  try {
    const work = path.join(dirs.root, 'work');
    fs.mkdirSync(work);
    const tilde = await runCli(['library', 'init', '~/Papers'], { env: dirs.env, cwd: work });
    assert.is(tilde.code, 2, tilde.stderr);
    assert.match(tilde.stderr, /starts with ~, which the shell expands only outside quotes/);
    assert.equal(fs.readdirSync(work), [], 'no folder named ~');

    const r = await runCli(['library', 'init', 'Papers'], { env: dirs.env, cwd: work });
    assert.is(r.code, 0, r.stderr);
    const papers = path.join(work, 'Papers');
    assert.ok(r.stderr.includes(`The vault goes inside ${papers} ("Papers" is taken from the current folder).`), r.stderr);
    const [folder] = fs.readdirSync(papers);
    assert.is(r.stdout.trim(), `Created the Library vault ${path.join(fs.realpathSync(papers), folder!)}`);
  } finally {
    dirs.cleanup();
  }
});

test('while a restore is staged, the commands that read the Library say it waits for the next start instead of "create one", and init is refused', async () => {
  const before = tempDirs();
  const after = tempDirs();
  try {
    const parent = path.join(before.root, 'Papers');
    const bundle = path.join(before.root, 'svc.tar');
    assert.is((await runCliInProcess(['library', 'init', parent], { env: before.env })).code, 0);
    assert.is((await runCliInProcess(['backup', '-o', bundle], { env: before.env })).code, 0);
    const into = path.join(after.root, 'restored');
    fs.mkdirSync(into);
    const staged = await runCliInProcess(['restore', bundle, '--vault-parent', into, '--yes'], { env: after.env });
    assert.is(staged.code, 0, staged.stderr);

    const waiting = /A restore is waiting for the next start of `svc serve` or the daemon: the backup of .+ \(svc\.tar\); its Library vault goes to .+restored\/svc-library-[0-9a-f-]{36}\. Start \(or restart\) the server to apply it/;
    const status = await runCliInProcess(['library', 'status'], { env: after.env });
    assert.is(status.code, 0);
    assert.match(status.stdout, waiting);
    assert.is(JSON.parse((await runCliInProcess(['--json', 'library', 'status'], { env: after.env })).stdout).restore_waiting, true);
    for (const args of [['library', 'list'], ['library', 'text', '1'], ['evidence', 'list']]) {
      const r = await runCliInProcess(args, { env: after.env });
      assert.is(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, waiting, args.join(' '));
      assert.not.match(r.stderr, /create one/, args.join(' '));
    }
    const init = await runCliInProcess(['--json', 'library', 'init', path.join(after.root, 'Other')], { env: after.env });
    assert.is(init.code, 4, init.stdout);
    assert.is(JSON.parse(init.stdout).error, 'restore_waiting');
    assert.not.ok(fs.existsSync(path.join(after.root, 'Other')), 'nothing made');
  } finally {
    before.cleanup();
    after.cleanup();
  }
});

test.run();
