/**
 * Test helpers for the man pages: the CLI's command tree as commander builds it,
 * and what a page's SYNOPSIS and headings name (commands, subcommands, flags),
 * read from the groff source with its fonts (bold is literal, italic a value).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { COMMANDS } from '../commands/main.js';
import type { Io } from '../commands/lib/io.js';
import { ROOT } from './_setup.js';

export interface CliCommand {
  /** Words after `svc`, e.g. `routine target add`. */
  path: string;
  aliases: string[];
  /** Each option's spellings: the long flag (`--output`, commander's `--no-x` as written) and the short one (`-o`). */
  options: string[][];
  /** Every spelling of every option. */
  flags: string[];
  hasSubcommands: boolean;
  /** Whether it runs something itself (`svc chat [id]`), not only groups subcommands. */
  hasAction: boolean;
  /** Flags that take a value (`--limit <n>`), so the next word is not an argument. */
  valued: string[];
  /** How many arguments it takes (Infinity for a variadic one). */
  maxArgs: number;
  /** The subcommand run when none is named (`svc watchdog` is `svc watchdog show`). */
  defaultSub?: string;
}

const quietIo: Io = { out() {}, write() {}, err() {}, readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, env: {}, json: false };

/** Every command and subcommand, each command's module registered on its own program, as runCli does. */
export async function cliTree(): Promise<CliCommand[]> {
  const out: CliCommand[] = [];
  const walk = (cmd: Command, at: string) => {
    const options = cmd.options.map((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
    // commander keeps the default subcommand's name in a field it does not type.
    const defaultSub = (cmd as unknown as { _defaultCommandName?: string | null })._defaultCommandName ?? undefined;
    const valued = cmd.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
    const maxArgs = cmd.registeredArguments.some((a) => a.variadic) ? Infinity : cmd.registeredArguments.length;
    out.push({ path: at, aliases: cmd.aliases(), options, flags: options.flat(), valued, maxArgs, hasSubcommands: cmd.commands.length > 0, hasAction: Boolean((cmd as unknown as { _actionHandler?: unknown })._actionHandler), defaultSub });
    for (const sub of cmd.commands) walk(sub, `${at} ${sub.name()}`);
  };
  for (const entry of COMMANDS) {
    const program = new Command('svc');
    (await entry.load()).register(program, quietIo);
    for (const cmd of program.commands) walk(cmd, cmd.name());
  }
  return out;
}

export const MAN_DIR = path.join(ROOT, 'man');

/** Page name → its groff source; a `.so` page is left out: it only points at another (docs-man.test.ts refuses one). */
export function manPages(dir = MAN_DIR): Map<string, string> {
  const pages = new Map<string, string>();
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.1')).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (!/^\.so /.test(text)) pages.set(name, text);
  }
  return pages;
}

interface Word {
  text: string;
  font: 'B' | 'I' | 'R';
}

/** groff escapes a page uses in literal text, undone. */
const unescape = (s: string) => s.replace(/\\-/g, '-').replace(/\\\(em/g, '—').replace(/\\\(dq/g, '"').replace(/\\&/g, '').replace(/\\ /g, ' ').replace(/\\e/g, '\\');

/** A macro's arguments: space separated, "quoted" ones kept whole. */
function macroArgs(rest: string): string[] {
  return [...rest.matchAll(/"((?:[^"]|"")*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1] : m[2]!));
}

/** One line of groff as words with their font (font macros and \fB \fI \fR \fP inline). */
export function lineWords(line: string): Word[] {
  const words: Word[] = [];
  const push = (text: string, font: Word['font']) => {
    for (const w of unescape(text).split(/\s+/).filter(Boolean)) words.push({ text: w, font });
  };
  const inline = (text: string, start: Word['font']) => {
    let font = start;
    for (const part of text.split(/(\\f[BIRP])/)) {
      if (/^\\f[BIRP]$/.test(part)) font = part[2] === 'P' ? start : (part[2] as Word['font']);
      else push(part, font);
    }
  };
  const m = /^\.(B|I|BR|RB|BI|IB|IR|RI|SS|TP)\b\s*(.*)$/.exec(line);
  if (!m) {
    if (!line.startsWith('.')) inline(line, 'R');
    return words;
  }
  const [macro, rest] = [m[1]!, m[2]!];
  if (macro === 'B' || macro === 'I') inline(macroArgs(rest).join(' '), macro);
  else if (macro === 'SS') inline(macroArgs(rest).join(' '), 'B');
  else if (macro !== 'TP') macroArgs(rest).forEach((arg, i) => inline(arg, macro[i % 2] as Word['font']));
  return words;
}

/** A page's text as plain words (for "is this flag named anywhere on the page"). */
export function plainText(page: string): string {
  return page
    .split('\n')
    .flatMap((l) => lineWords(l).map((w) => w.text))
    .join(' ');
}

export interface Usage {
  /** Command paths it names, e.g. `restore status`, `restore cancel` for `restore status|cancel`. */
  paths: string[];
  /** Flags it shows. */
  flags: string[];
  /** Where it is, for messages. */
  where: string;
}

/**
 * One usage: `svc`, `[--json]`, then the command words — bold words before the
 * first flag, argument or other text, a roman `|` between bold words giving
 * alternatives at the same depth (`restore status | cancel`), a bold word in
 * roman brackets an optional subcommand (`lifecycle [status]`). In a heading
 * (bold throughout) an UPPER-case word or a bracket ends the command words.
 */
function usageOf(words: Word[], where: string, heading: boolean): Usage | null {
  let i = 0;
  while (i < words.length && ['svc', '[', ']', '[--json]', '--json'].includes(words[i]!.text)) i++;
  if (i === 0 || i >= words.length) return null;
  const levels: string[][] = [];
  let alternative = false;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const literal = w.font === 'B' && /^[a-z][a-z-]*$/.test(w.text);
    if (w.text === '|' || (heading && w.text === '|')) {
      alternative = true;
      continue;
    }
    if (w.font === 'R' && (w.text === '[' || w.text === ']') && !heading) continue;
    if (!literal) break;
    if (alternative && levels.length > 0) levels[levels.length - 1]!.push(w.text);
    else levels.push([w.text]);
    alternative = false;
  }
  if (levels.length === 0) return null;
  // Every prefix with each alternative of the last level.
  const paths: string[] = [];
  let prefixes = [''];
  for (const level of levels) {
    prefixes = prefixes.flatMap((p) => level.map((w) => (p ? `${p} ${w}` : w)));
    paths.push(...prefixes);
  }
  const flags = words.slice(i).flatMap((w) => [...w.text.matchAll(/(?<![\w-])--?[a-z][a-z0-9-]*/g)].map((f) => f[0]));
  return { paths, flags, where };
}

/**
 * The usages a page gives: each SYNOPSIS entry (`.br` and `.PP` separate them) and
 * each `.SS` or `.TP` heading that starts with `svc`.
 */
export function usages(name: string, page: string): Usage[] {
  const out: Usage[] = [];
  const lines = page.split('\n');
  let section = '';
  let entry: Word[] = [];
  const endEntry = (where: string) => {
    const u = entry.length ? usageOf(entry, where, false) : null;
    if (u) out.push(u);
    entry = [];
  };
  lines.forEach((line, n) => {
    const where = `${name}:${n + 1}`;
    if (line.startsWith('.SH ')) {
      if (section === 'SYNOPSIS') endEntry(where);
      section = macroArgs(line.slice(4)).join(' ');
      return;
    }
    if (section === 'SYNOPSIS') {
      if (line === '.br' || line === '.PP') endEntry(where);
      else entry.push(...lineWords(line));
      return;
    }
    const heading = line.startsWith('.SS ') || (n > 0 && lines[n - 1] === '.TP');
    if (!heading) return;
    const words = lineWords(line);
    if (words[0]?.text !== 'svc') return;
    // A heading is bold throughout: its values are UPPER case (ID, GROUP) or bracketed.
    const marked = words.map((w) => ({ ...w, font: /^[a-z][a-z-]*$/.test(w.text) ? ('B' as const) : ('R' as const) }));
    const u = usageOf(marked, where, true);
    if (u) out.push(u);
  });
  return out;
}

const GLOBAL_FLAGS = ['--json', '--help', '-h', '--version', '-V'];

/**
 * What is wrong with one command line as a page or the README shows it (the
 * words after `svc`): the longest known command path is taken; a word after a
 * command that only groups subcommands must be one of them; every flag must be
 * the command's, an enclosing command's or global. Words after the command are
 * otherwise arguments: with `countArgs` (a real command line, not a usage with
 * placeholders and brackets), no more of them than the command takes.
 */
export function mentionProblems(tree: CliCommand[], words: string[], o: { countArgs?: boolean } = {}): string[] {
  const byPath = new Map<string, CliCommand>(tree.map((c) => [c.path, c]));
  for (const c of tree) {
    const parent = c.path.split(' ').slice(0, -1).join(' ');
    for (const a of c.aliases) byPath.set(parent ? `${parent} ${a}` : a, c);
  }
  const line = `svc ${words.join(' ')}`;
  let at = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = at ? `${at} ${words[i]}` : words[i]!;
    if (!byPath.has(next)) break;
    at = next;
  }
  const flagsIn = (ws: string[]) => ws.flatMap((w) => [...w.matchAll(/(?<![\w-])--?[a-zA-Z][a-z0-9-]*/g)].map((m) => m[0]));
  if (!at) {
    if (words.length && words.every((w) => w.startsWith('-'))) return flagsIn(words).filter((f) => !GLOBAL_FLAGS.includes(f)).map((f) => `${line}: ${f} is no flag of svc`);
    return [`${line}: "${words[0]}" is no command`];
  }
  const cmd = byPath.get(at)!;
  const out: string[] = [];
  const owners = at.split(' ').map((_, k, ws) => ws.slice(0, k + 1).join(' '));
  if (cmd.defaultSub) owners.push(`${at} ${cmd.defaultSub}`);
  const runs = cmd.defaultSub ? byPath.get(`${at} ${cmd.defaultSub}`)! : cmd;
  // The arguments: words after the command that are neither flags nor a flag's value.
  const args: string[] = [];
  for (let k = i; k < words.length; k++) {
    const w = words[k]!;
    if (!w.startsWith('-')) args.push(w);
    else if (!w.includes('=') && owners.some((p) => byPath.get(p)?.valued.includes(w))) k++;
  }
  if (args.length > 0 && cmd.hasSubcommands && !cmd.hasAction && !cmd.defaultSub) out.push(`${line}: "${args[0]}" is not a subcommand of svc ${at}`);
  for (const flag of flagsIn(words.slice(i))) {
    if (GLOBAL_FLAGS.includes(flag)) continue;
    if (!owners.some((p) => byPath.get(p)?.flags.includes(flag))) out.push(`${line}: ${flag} is no flag of svc ${at}`);
  }
  // An unknown flag's value would count as an argument: only a line whose flags are all known is counted.
  if (o.countArgs && out.length === 0 && args.length > runs.maxArgs) out.push(`${line}: svc ${at} takes ${runs.maxArgs || 'no'} argument${runs.maxArgs === 1 ? '' : 's'}, not "${args.slice(runs.maxArgs).join(' ')}"`);
  return out;
}

/** Each `svc …` a page shows in bold (`\fBsvc routine run\fR`, `.B svc serve \-\-daemon`), as the words after svc. */
export function boldMentions(name: string, page: string): { where: string; words: string[] }[] {
  const out: { where: string; words: string[] }[] = [];
  page.split('\n').forEach((line, n) => {
    let run: string[] = [];
    const flush = () => {
      if (run[0] === 'svc' && run.length > 1) out.push({ where: `${name}:${n + 1}`, words: run.slice(1) });
      run = [];
    };
    for (const w of lineWords(line)) {
      if (w.font === 'B') run.push(w.text.replace(/[,.;:)]+$/, ''));
      else flush();
    }
    flush();
  });
  return out;
}

/**
 * The `svc …` commands a TypeScript source shows in its strings (hints and
 * errors): a code span in a quoted string ('… `svc routine list` …') or an
 * escaped one in a template (`… \`svc routine show ${id}\` …`, each ${…} read
 * as a word X). A small scanner, not a parser: comments are skipped; a regular
 * expression holding a quote could mislead it, which a failing test would show.
 */
export function sourceMentions(text: string): string[] {
  const literals: { body: string; template: boolean }[] = [];
  let i = 0;
  const n = text.length;
  const readQuoted = (q: string) => {
    let body = '';
    for (i++; i < n && text[i] !== q && text[i] !== '\n'; i++) body += text[i] === '\\' ? text[i] + text[++i] : text[i];
    literals.push({ body, template: false });
  };
  const readTemplate = () => {
    let body = '';
    for (i++; i < n && text[i] !== '`'; i++) {
      if (text[i] === '\\') body += text[i] + text[++i];
      else if (text[i] === '$' && text[i + 1] === '{') {
        // Skip the expression, braces balanced (a nested template is skipped whole).
        let depth = 0;
        for (i++; i < n; i++) {
          if (text[i] === '{') depth++;
          else if (text[i] === '}' && --depth === 0) break;
        }
        body += /\S$/.test(body) ? ' X' : 'X';
      } else body += text[i];
    }
    literals.push({ body, template: true });
  };
  for (; i < n; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) === -1 ? n : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) === -1 ? n : text.indexOf('*/', i + 2) + 1;
    else if (c === "'" || c === '"') readQuoted(c);
    else if (c === '`') readTemplate();
  }
  return literals.flatMap(({ body, template }) => [...body.matchAll(template ? /\\`svc ([^`\\]+)\\`/g : /`svc ([^`]+)`/g)].map((m) => m[1]!));
}
