/**
 * CLI manners across every command (the audit of wave 2): destructive commands
 * refuse without --yes off a terminal (exit 2, one line naming --yes, one JSON
 * document under --json); progress is drawn only on a terminal and is quiet
 * when piped; errors are one line without "undefined"; a command's own flag is
 * never taken by svc's; every command has a man page whose EXIT STATUS has
 * 0, 1, 2 and 130.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS, describeError } from '../commands/main.js';
import { progressBar, statusLine } from '../commands/lib/bar.js';
import { drawsOnTerminal, type Io } from '../commands/lib/io.js';
import { startSnapshot } from '../src/admin/snapshot.js';
import { fixture, ROOT, tempDirs } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { onPty, type PtyStep } from './_pty.js';
import { runCliInProcess } from './_cli.js';

const dirs = tempDirs();
let crossref: Stub;
let env: Record<string, string>;
const svc = (args: string[], stdin?: string) => runCliInProcess(args, { env, stdin });

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
});
test.after(async () => {
  await crossref.close();
  dirs.cleanup();
});

function fakeIo(over: Partial<Io>): Io & { errs: string[] } {
  const errs: string[] = [];
  return { out: () => {}, write: () => {}, err: (t) => void errs.push(t), readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, env: {}, json: false, errs, ...over };
}

/** Every command path (e.g. "routine target remove") with its option flags, read from the commands' own registrations. */
async function commandPaths(): Promise<{ path: string; flags: string[] }[]> {
  const silent = fakeIo({});
  const found: { path: string; flags: string[] }[] = [];
  const walk = (cmd: Command, prefix: string[]) => {
    const here = [...prefix, cmd.name()];
    found.push({ path: here.join(' '), flags: cmd.options.map((o) => o.long ?? o.short ?? '') });
    for (const sub of cmd.commands) walk(sub, here);
  };
  for (const entry of COMMANDS) {
    const program = new Command('svc');
    (await entry.load()).register(program, silent);
    walk(program.commands.find((c) => c.name() === entry.name)!, []);
  }
  return found;
}

test('destructive commands without --yes off a terminal: exit 2, one line naming --yes, nothing removed', async () => {
  // Items to refuse to remove.
  assert.is((await svc(['dive', 'crossref', 'ecology', '--max', '2'])).code, 0);
  assert.is((await svc(['routine', 'add', '--name', 'eco', '--schedule', '@daily', '--query', 'ecology', '--sources', 'crossref'])).code, 0);
  assert.is((await svc(['config', 'add', '--name', 'c', '--type', 'dive', '--parameters', '{"repository":"crossref","query":"x"}'])).code, 0);
  assert.is((await svc(['credentials', 'set', 'openalex_api_key'], 'k-1\n')).code, 0);
  assert.is((await svc(['profile', 'add', 'Alice'])).code, 0);
  assert.is((await svc(['queue', 'add', '1'])).code, 0);
  assert.is((await svc(['chat', 'new'])).code, 0);
  const outDir = path.join(dirs.root, 'out');
  fs.mkdirSync(outDir);
  const target = await svc(['--json', 'routine', 'target', 'add', '1', '--channel', 'folder', '--target', outDir]);
  assert.is(target.code, 0, target.stderr);
  const targetId = String(JSON.parse(target.stdout).id);

  const cases: Record<string, string[]> = {
    'executions delete': ['executions', 'delete', '1'],
    'routine delete': ['routine', 'delete', '1'],
    'routine target remove': ['routine', 'target', 'remove', '1', targetId],
    'config delete': ['config', 'delete', '1'],
    'credentials delete': ['credentials', 'delete', 'openalex_api_key'],
    'profile delete': ['profile', 'delete', '1'],
    'queue remove': ['queue', 'remove', '1'],
    'chat delete': ['chat', 'delete', '1'],
    'assistant delete': ['assistant', 'delete', '1'],
    erase: ['erase', 'configs'],
    'restore delete-undo': ['restore', 'delete-undo'],
    'cloud unlink': ['cloud', 'unlink'],
  };
  // Checked in their own tests, with the items they need: a staged bundle, a delivery, a preview.
  const elsewhere = new Set(['restore', 'deliveries skip', 'deliver skip', 'answer send']);
  for (const { path: p, flags } of await commandPaths()) {
    if (flags.includes('--yes')) assert.ok(p in cases || elsewhere.has(p), `${p} has --yes: add it to this test`);
  }
  for (const [name, args] of Object.entries(cases)) {
    const plain = await svc(args);
    assert.is(plain.code, 2, `${name}: ${plain.stderr}`);
    assert.is(plain.stdout, '', `${name}: nothing on stdout`);
    assert.is(plain.stderr.trim().split('\n').length, 1, `${name}: one line: ${plain.stderr}`);
    assert.match(plain.stderr, /--yes/, name);
    const json = await svc(['--json', ...args]);
    assert.is(json.code, 2, name);
    assert.is(JSON.parse(json.stdout).error, 'confirmation_required', name);
  }
  // Nothing was removed.
  assert.is(JSON.parse((await svc(['--json', 'executions', 'list'])).stdout).total, 1);
  assert.is(JSON.parse((await svc(['--json', 'routine', 'target', 'list', '1'])).stdout).targets.length, 1);
  assert.is(JSON.parse((await svc(['--json', 'config', 'list'])).stdout).total, 1);
  assert.is((await svc(['profile', 'show', '1'])).code, 0);
  assert.is((await svc(['chat', 'show', '1'])).code, 0);
});

/** Run svc on a real terminal, type `keys` once the prompt is up (or each step's keys once its text shows), and answer what it showed and the exit code. */
async function onTerminal(args: string[], keys: string | PtyStep[]): Promise<{ transcript: string; code: number | null }> {
  const r = await onPty(args, env, typeof keys === 'string' ? [{ after: '◆', keys }] : keys);
  return { transcript: r.screen, code: r.code };
}

test('a declined confirmation on a terminal still prints one JSON document under --json (restore, delete-undo, cloud unlink, erase, profile, queue, chat, deliveries, routine target)', async () => {
  // restore asks only once the bundle has passed every check: a real one (a missing one is refused before any question).
  const bundle = path.join(dirs.root, 'any.tar');
  assert.is((await svc(['backup', '-o', bundle])).code, 0);
  const cases: [string[], Parameters<typeof onTerminal>[1], RegExp, number][] = [
    [['--json', 'restore', bundle], 'n', /A restore would:[\s\S]*\{\s*"staged": false\s*\}/, 0],
    [['--json', 'restore', 'delete-undo'], 'n', /\{\s*"deleted": 0\s*\}/, 0],
    [['--json', 'cloud', 'unlink'], 'n', /\{\s*"unlinked": false\s*\}/, 0],
    [['--json', 'erase', 'configs'], [{ after: 'Type configs to go ahead', keys: 'nope\r' }, { after: '"nope" is not configs', keys: 'nope\r' }], /\{\s*"error": "not_confirmed",\s*"message": "configs was not typed; nothing erased\."\s*\}/, 1],
    [['--json', 'erase', 'configs'], '\r', /\{\s*"error": "not_confirmed",\s*"message": "configs was not typed; nothing erased\."\s*\}/, 1],
    [['--json', 'profile', 'delete', '1'], 'n', /\{\s*"id": 1,\s*"deleted": false\s*\}/, 0],
    [['--json', 'queue', 'remove', '1'], 'n', /\{\s*"document_id": 1,\s*"removed": false\s*\}/, 0],
    [['--json', 'chat', 'delete', '1'], 'n', /\{\s*"id": 1,\s*"deleted": false\s*\}/, 0],
  ];
  // A delivery to decline skipping: the routine's run delivers to its folder (asked before its state is judged).
  const run = await svc(['--json', 'routine', 'run', '1']);
  assert.is(run.code, 0, run.stderr);
  const delivery = JSON.parse((await svc(['--json', 'deliveries', 'list', '--routine', '1'])).stdout).deliveries[0].id;
  cases.push([['--json', 'deliveries', 'skip', String(delivery)], 'n', new RegExp(`\\{\\s*"id": ${delivery},\\s*"skipped": false\\s*\\}`), 0]);
  const targets = JSON.parse((await svc(['--json', 'routine', 'target', 'list', '1'])).stdout).targets;
  cases.push([['--json', 'routine', 'target', 'remove', '1', String(targets[0].id)], 'n', new RegExp(`\\{\\s*"id": ${targets[0].id},\\s*"removed": false\\s*\\}`), 0]);
  for (const [args, keys, doc, code] of cases) {
    const r = await onTerminal(args, keys);
    assert.match(r.transcript, doc, `${args.join(' ')}: ${r.transcript}`);
    assert.is(r.code, code, args.join(' '));
  }
  assert.not.ok(fs.existsSync(path.join(dirs.dataDir, 'restore-staged')), 'a declined restore leaves nothing extracted');
});

test('a command\'s own --version is its own: evidence add --version is validated, not svc\'s version', async () => {
  const uuid = '00000000-0000-4000-8000-000000000000';
  for (const verb of ['add', 'remove']) {
    const r = await svc(['--json', 'evidence', verb, uuid, uuid, '--version', 'abc']);
    assert.is(r.code, 2, `evidence ${verb}: ${r.stdout}`);
    assert.match(JSON.parse(r.stdout).message, /--version/);
  }
  // Checked before the vault is opened: there is none here, and a bad value is still a usage error.
  for (const args of [['evidence', 'show', 'a\nb'], ['evidence', 'read', uuid, uuid, '--page', '0'], ['evidence', 'notes', uuid, '--limit', '99']]) {
    const r = await svc(args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
  }
  assert.match((await svc(['--version'])).stdout, /^\d+\.\d+\.\d+\n$/);
  assert.match(JSON.parse((await svc(['--json', '-V'])).stdout).version, /^\d+\.\d+\.\d+$/);
});

test('profile edit changes one field without --orcid (no crash on commander\'s default)', async () => {
  const r = await svc(['--json', 'profile', 'edit', '1', '--name', 'Bob']);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).name, 'Bob');
  assert.is((await svc(['profile', 'edit', '1', '--no-orcid'])).code, 0);
});

test('errors are one line that never says undefined: missing keys, ids, non-Error throws', async () => {
  const r = await svc(['config', 'add', '--name', 'c2', '--type', 'dive', '--parameters', '{}']);
  assert.is(r.code, 2);
  assert.not.match(r.stderr, /undefined|body\./);
  assert.match(r.stderr, /parameters\.repository is required/);
  assert.match((await svc(['executions', 'show', 'abc'])).stderr, /An execution id is a positive whole number/);
  // A refused value is quoted clipped to 60 characters and on one line, whatever was given.
  const long = await svc(['evidence', 'show', 'x'.repeat(300)]);
  assert.is(long.code, 2);
  assert.ok(long.stderr.trim().length < 200 && long.stderr.includes('x'.repeat(50)) && !long.stderr.includes('x'.repeat(61)), long.stderr);
  assert.is((await svc(['executions', 'show', 'a\nb'])).stderr.trim(), 'svc: An execution id is a positive whole number, not "a\\nb".');
  for (const thrown of [{ code: 'SQLITE_CANTOPEN' }, {}, new Error(''), undefined, 'two\nlines']) {
    const { message } = describeError(thrown);
    assert.not.match(message, /undefined|\[object|\n/, JSON.stringify(String(thrown)));
    assert.ok(message.length > 0);
  }
});

test('a parse error is one line with commander\'s suggestion and the help to read; --json gets it without a newline', async () => {
  const typo = await svc(['explore', '--sortt', 'newest']);
  assert.is(typo.code, 2);
  assert.is(typo.stderr.trim(), "svc: unknown option '--sortt' (did you mean --sort?); see svc explore --help");
  const sub = await svc(['executions', 'lst', '--json']);
  assert.is(sub.code, 2);
  assert.is(sub.stderr.trim().split('\n').length, 1);
  assert.equal(JSON.parse(sub.stdout), { error: 'usage', message: "unknown command 'lst' (did you mean list?); see svc executions --help" });
  assert.is((await svc(['queue', 'read'])).stderr.trim(), "svc: missing required argument 'doc_id'; see svc queue read --help");
});

test('a group named without a command shows its help, and under --json prints its commands as one document (exit 0)', async () => {
  for (const [argv, group, some] of [
    [['--json', 'corpus'], 'svc corpus', 'audit'],
    [['settings', '--json'], 'svc settings', 'set'],
    [['--json'], 'svc', 'dive'],
  ] as const) {
    const r = await svc([...argv]);
    assert.is(r.code, 0, argv.join(' '));
    const doc = JSON.parse(r.stdout);
    assert.is(doc.command, group);
    assert.ok(doc.commands.some((c: { name: string; summary: string }) => c.name === some && c.summary.length > 0), `${group} lists ${some}`);
  }
  const plain = await svc(['corpus']);
  assert.equal([plain.code, plain.stdout], [0, '']);
  assert.match(plain.stderr, /Usage: svc corpus/);
});

test('svc search, the first word a person tries, points to dive, sweep and explore (exit 2), not to health or serve', async () => {
  for (const argv of [['search', 'crispr'], ['search'], ['help', 'search']]) {
    const r = await svc(argv);
    assert.is(r.code, 2, argv.join(' '));
    assert.is(r.stdout, '');
    assert.is(r.stderr.trim(), 'svc: search is not a svc command: `svc dive SOURCE "WORDS"` searches one repository, `svc sweep "WORDS" --sources IDS` several at once (`svc sources` lists them), and `svc explore "WORDS"` the papers already collected; see svc --help');
  }
  const json = await svc(['--json', 'search', 'crispr']);
  assert.equal([json.code, JSON.parse(json.stdout).error], [2, 'usage']);
  assert.match(JSON.parse(json.stdout).message, /^search is not a svc command: .*svc explore/);
});

test('a snapshot that fails in its worker says why (a SqliteError loses its message crossing threads)', async () => {
  const file = path.join(dirs.root, 'not-a-database.db');
  fs.writeFileSync(file, 'not a database '.repeat(400));
  const snap = startSnapshot(file, path.join(dirs.root, 'snap.db'));
  const err = await snap.facts.then(() => undefined, (e: Error) => e);
  assert.ok(err, 'refused');
  assert.not.match(err!.message, /undefined/);
  assert.match(err!.message, /not a database|SQLITE_NOTADB/);
});

test('progress: drawn only when stdout and stderr are terminals, quiet when piped or --json', async () => {
  assert.is(drawsOnTerminal(fakeIo({ stdoutIsTTY: true, stderrIsTTY: true })), true);
  assert.is(drawsOnTerminal(fakeIo({ stdoutIsTTY: true, stderrIsTTY: false })), false, 'stderr redirected to a file');
  assert.is(drawsOnTerminal(fakeIo({ stdoutIsTTY: true, stderrIsTTY: true, json: true })), false);
  for (const io of [fakeIo({}), fakeIo({ stdoutIsTTY: true, stderrIsTTY: false }), fakeIo({ stdoutIsTTY: true, json: true })]) {
    const bar = progressBar(io, 'linking');
    bar.update(0, 10);
    bar.update(10, 10);
    assert.equal(io.errs, [], 'a bar is quiet off a terminal');
  }
  const tty = fakeIo({ stdoutIsTTY: true, stderrIsTTY: true });
  const bar = progressBar(tty, 'linking');
  bar.update(1, 2);
  bar.update(2, 2);
  assert.is(tty.errs.length, 2);
  assert.ok(tty.errs[1]!.startsWith('\x1b[1A\x1b[2K'), 'redrawn in place');
  const line = statusLine(tty);
  line('slice 1');
  line('slice 2');
  assert.ok(tty.errs[3]!.startsWith('\x1b[1A'), 'a status line is redrawn in place on a terminal');
  const piped = fakeIo({});
  statusLine(piped)('slice 1');
  assert.equal(piped.errs, ['slice 1'], 'piped: a plain log line, no escapes');
  // End to end: a piped scan prints its result and no progress.
  const scan = await svc(['links', 'scan']);
  assert.is(scan.code, 0, scan.stderr);
  assert.not.match(scan.stderr, /linking|\x1b/);
});

test('every command has a man page, and every page says exit 0, 1, 2 and 130', () => {
  const pages = fs.readdirSync(path.join(ROOT, 'man')).filter((f) => f.endsWith('.1'));
  const named = new Set<string>();
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, 'man', page), 'utf8');
    if (text.startsWith('.so ')) continue;
    const name = text.split(/^\.SH NAME$/m)[1]?.split(/^\.SH /m)[0] ?? '';
    for (const m of name.matchAll(/svc(?:\\-|\s)([a-z-]+)/g)) named.add(m[1]!);
    const synopsis = text.split(/^\.SH SYNOPSIS$/m)[1]?.split(/^\.SH /m)[0] ?? '';
    for (const m of synopsis.matchAll(/^\.BR? "?(?:svc )?([a-z][a-z-]*)/gm)) named.add(m[1]!);
    const section = text.split(/^\.SH "?EXIT STATUS"?$/m)[1]?.split(/^\.SH /m)[0];
    assert.ok(section, `${page} has EXIT STATUS`);
    for (const code of ['0', '1', '2', '130']) {
      assert.ok(new RegExp(`^\\.B ${code}$`, 'm').test(section!) || new RegExp(`(^|[;:] )${code} `, 'm').test(section!), `${page}: exit ${code}`);
    }
  }
  const svc1 = fs.readFileSync(path.join(ROOT, 'man', 'svc.1'), 'utf8');
  for (const c of COMMANDS) {
    assert.ok(named.has(c.name) || svc1.includes(`.SS "svc ${c.name}`), `${c.name} has a man page`);
  }
});

// Last: it erases the saved configurations and watch profiles the other tests use.
test('a typed confirmation that does not match asks again once on a terminal: the second answer decides', async () => {
  const configs = () => svc(['--json', 'config', 'list']).then((r) => (JSON.parse(r.stdout) as { total: number }).total);
  assert.is((await svc(['config', 'add', '--name', 'kept-or-not', '--type', 'dive', '--parameters', '{"repository":"crossref","query":"x"}'])).code, 0);
  assert.ok((await configs()) > 0);
  const slip = await onTerminal(['erase', 'configs'], [{ after: 'Type configs to go ahead', keys: 'config\r' }, { after: '"config" is not configs', keys: 'configs\r' }]);
  assert.is(slip.code, 0, slip.transcript);
  assert.match(slip.transcript, /Type configs to go ahead \(anything else changes nothing\)/);
  assert.is(await configs(), 0);
});

test.run();
