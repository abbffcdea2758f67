/** The README is the install path: its commands must be the ones CI runs and name real commands. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMMANDS } from '../commands/main.js';
import { EXIT } from '../commands/lib/exit-codes.js';
import { ROOT } from './_setup.js';
import { cliTree, mentionProblems } from './_man.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('.ci/run runs exactly the README set-up and test command', () => {
  const setup = readme.split('```sh\n')[1]!.split('```')[0]!.split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, ''));
  assert.equal(setup, ['npm ci && node bin/svc.js serve', 'npm ci && npm test']);
  const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#') && !/^(set|cd) /.test(l));
  assert.equal(ci, ['npm ci && npm test'], 'no extra environment: the README alone must work');
});

test('the README never sends a person to npx svc (the registry first, an unrelated package outside the folder): its examples say svc', () => {
  const mentions = readme.split('\n\n').filter((p) => p.includes('npx svc'));
  assert.equal(mentions.map((p) => p.slice(0, 14)), ['Not `npx svc`:'], 'only the paragraph that says why not');
  assert.ok(shellLines(readme).filter((l) => l.startsWith('svc ')).length > 15);
});

test('the README\'s set-up puts svc and its man pages on the PATH without root, and svc then runs from any folder', () => {
  const block = readme.split('## Set-up')[1]!.split('```sh\n')[1]!.split('```')[0]!;
  const steps = block.split('\n').map((l) => l.replace(/\s+#.*$/, '')).filter((l) => l && !l.startsWith('svc '));
  assert.equal(steps.length, 2, block);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-readme-'));
  try {
    for (const step of steps) {
      const r = spawnSync('sh', ['-c', step], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
      assert.is(r.status, 0, `${step}: ${r.stderr}`);
    }
    assert.ok(fs.existsSync(path.join(home, '.local', 'share', 'man', 'man1', 'svc-library.1')), 'the man pages are linked');
    const elsewhere = fs.mkdtempSync(path.join(home, 'elsewhere-'));
    const PATH = [path.join(home, '.local', 'bin'), path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
    const version = spawnSync('svc', ['--version'], { cwd: elsewhere, env: { PATH, HOME: home }, encoding: 'utf8' });
    assert.is(version.status, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a fresh machine needs no environment: .npmrc names the Node headers; svc is the package bin', () => {
  assert.match(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8'), /^nodedir=\S+$/m);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.is(pkg.bin.svc, 'bin/svc.js');
  assert.is(pkg.scripts.prepare, 'npm run build');
});

/** The lines of the README's sh blocks, comments dropped, each split at `&&`. */
function shellLines(text: string): string[] {
  const blocks = text.split('```sh\n').slice(1).map((b) => b.split('```')[0]!);
  return blocks.flatMap((b) => b.split('\n')).flatMap((line) => line.replace(/\s+#.*$/, '').split(/\s*&&\s*/)).map((c) => c.trim()).filter(Boolean);
}

test('every `svc X` in the README names a command svc has', () => {
  const used = shellLines(readme).flatMap((c) => /^svc ([a-z][a-z-]*)/.exec(c)?.[1] ?? []);
  assert.ok(used.length > 5);
  for (const name of used) assert.ok(COMMANDS.some((c) => c.name === name), name);
});

/** The words of each `svc …` command in an sh block and each `svc …` in backticks, shell quotes kept together. */
function examples(text: string): string[][] {
  const commands = shellLines(text).flatMap((c) => /^svc (.+)$/.exec(c)?.[1] ?? []);
  const inline = [...text.matchAll(/`svc ([^`]+)`/g)].map((m) => m[1]!);
  return [...commands, ...inline].map((l) => [...l.matchAll(/"[^"]*"|\S+/g)].map((w) => w[0])).filter((ws) => ws.length && ws[0] !== '…');
}

test('every svc example in the README names a command and flags the CLI has', async () => {
  const tree = await cliTree();
  const found = examples(readme).flatMap((ws) => mentionProblems(tree, ws, { countArgs: true }));
  assert.ok(examples(readme).length > 15);
  assert.equal(found, [], found.join('\n'));
  // And the check can fail on a renamed flag or subcommand.
  const broken = examples('```sh\nsvc dive arxiv "x y" --since 2024-01-01   # z\nsvc backup -o b.tar && svc backup check b.tar\n```').flatMap((ws) => mentionProblems(tree, ws, { countArgs: true }));
  assert.equal(broken, ['svc dive arxiv "x y" --since 2024-01-01: --since is no flag of svc dive', 'svc backup check b.tar: svc backup takes no arguments, not "check b.tar"']);
});

test('the README\'s exit status table lists every code of the one table, each once, and no other', () => {
  const section = readme.split('### Exit status')[1]!.split(/\n#/)[0]!;
  const listed = [...section.matchAll(/^\| (\d+) \| \S/gm)].map((m) => Number(m[1]));
  assert.equal(listed, [...new Set(Object.values(EXIT))].sort((a, b) => a - b));
});

test.run();
