/** The README is the install path: its commands must be the ones CI runs and name real commands. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../commands/main.js';
import { EXIT } from '../commands/lib/exit-codes.js';
import { ROOT } from './_setup.js';
import { cliTree, mentionProblems } from './_man.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('.ci/run runs exactly the README set-up and test command', () => {
  const setup = readme.split('```sh\n')[1]!.split('```')[0]!.split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, ''));
  assert.equal(setup, ['npm ci && npx svc serve', 'npm ci && npm test']);
  const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#') && !/^(set|cd) /.test(l));
  assert.equal(ci, ['npm ci && npm test'], 'no extra environment: the README alone must work');
});

test('a fresh machine needs no environment: .npmrc names the Node headers; svc is the package bin', () => {
  assert.match(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8'), /^nodedir=\S+$/m);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.is(pkg.bin.svc, 'bin/svc.js');
  assert.is(pkg.scripts.prepare, 'npm run build');
});

test('every `npx svc X` in the README names a command svc has', () => {
  const used = [...readme.matchAll(/npx svc ([a-z][a-z-]*)/g)].map((m) => m[1]!);
  assert.ok(used.length > 5);
  for (const name of used) assert.ok(COMMANDS.some((c) => c.name === name), name);
});

/** The words of each `npx svc …` command (lines split at `&&`, comments dropped) and each `svc …` in backticks, shell quotes kept together. */
function examples(text: string): string[][] {
  const commands = text.split('\n').flatMap((line) => line.replace(/\s+#.*$/, '').split(/\s*&&\s*/)).flatMap((c) => /^npx svc (.+)$/.exec(c.trim())?.[1] ?? []);
  const inline = [...text.matchAll(/`(?:npx )?svc ([^`]+)`/g)].map((m) => m[1]!);
  return [...commands, ...inline].map((l) => [...l.matchAll(/"[^"]*"|\S+/g)].map((w) => w[0])).filter((ws) => ws.length && ws[0] !== '…');
}

test('every svc example in the README names a command and flags the CLI has', async () => {
  const tree = await cliTree();
  const found = examples(readme).flatMap((ws) => mentionProblems(tree, ws, { countArgs: true }));
  assert.ok(examples(readme).length > 15);
  assert.equal(found, [], found.join('\n'));
  // And the check can fail on a renamed flag or subcommand.
  const broken = examples('```sh\nnpx svc dive arxiv "x y" --since 2024-01-01   # z\nnpx svc backup -o b.tar && npx svc backup check b.tar\n```').flatMap((ws) => mentionProblems(tree, ws, { countArgs: true }));
  assert.equal(broken, ['svc dive arxiv "x y" --since 2024-01-01: --since is no flag of svc dive', 'svc backup check b.tar: svc backup takes no arguments, not "check b.tar"']);
});

test('the README\'s exit status table lists every code of the one table, each once, and no other', () => {
  const section = readme.split('### Exit status')[1]!.split(/\n#/)[0]!;
  const listed = [...section.matchAll(/^\| (\d+) \| \S/gm)].map((m) => Number(m[1]));
  assert.equal(listed, [...new Set(Object.values(EXIT))].sort((a, b) => a - b));
});

test.run();
