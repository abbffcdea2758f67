/**
 * The CLI entry. Only commander is imported up front; each command's module is
 * loaded when that command runs, so `svc --help` opens no database and loads
 * no server. Only bin/svc.js calls process.exit.
 */
import { Command, CommanderError } from 'commander';
import { SvcError, ValidationError, type ValidationIssue } from '../src/errors.js';
import { svcVersion } from '../src/version.js';
import { EXIT, exitCodeFor } from './lib/exit-codes.js';
import type { Io } from './lib/io.js';
import { withNextStep, withoutRoute } from './lib/hints.js';
import { ERASE_WORD_LIST } from './admin/erase-scopes.js';

export { processIo } from './lib/io.js';

export interface CommandModule {
  register(program: Command, io: Io): void;
}

interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<CommandModule>;
}

/** Every command, in help order. */
export const COMMANDS: CommandEntry[] = [
  { name: 'window', summary: 'open svc in your browser (attaches to the daemon or starts a backend of its own)', load: () => import('./window/window.js') },
  { name: 'serve', summary: 'run the HTTP server on 127.0.0.1', load: () => import('./server/serve.js') },
  { name: 'health', summary: 'check the running server', load: () => import('./server/health.js') },
  { name: 'settings', summary: 'read and change settings', load: () => import('./settings/settings.js') },
  { name: 'credentials', summary: 'store API keys and passwords (values never shown)', load: () => import('./settings/credentials.js') },
  { name: 'dive', summary: 'search one repository (foreground, live progress)', load: () => import('./search/dive.js') },
  { name: 'sweep', summary: 'search several repositories at once', load: () => import('./search/sweep.js') },
  { name: 'executions', summary: 'list, show, cancel, restart and delete runs; logs, reports, search records', load: () => import('./search/executions.js') },
  { name: 'routine', summary: 'saved searches on a schedule: add, list, show, edit, run, coverage, jobs', load: () => import('./routine/routine.js') },
  { name: 'config', summary: 'saved configurations: list, add, export, import, delete', load: () => import('./routine/config.js') },
  { name: 'export', summary: 'export references (bibtex, ris, csv, json)', load: () => import('./search/export.js') },
  { name: 'sources', summary: 'list the repositories svc can search, with key status', load: () => import('./search/sources.js') },
  { name: 'library', summary: 'the owned-file Library: a vault of PDF, TXT and MD copies', load: () => import('./library/library.js') },
  // area: delivery
  { name: 'deliveries', summary: 'deliveries of routine reports: list, show, release, retry, skip, email-test', load: () => import('./deliveries/deliveries.js') },
  { name: 'deliver', summary: 'same as deliveries', load: () => import('./deliveries/deliver.js') },
  // area: explorer
  { name: 'explore', summary: 'search, facet and export the whole corpus (cursor paging with --next)', load: () => import('./corpus/explore.js') },
  { name: 'queue', summary: 'the reading queue: list, add, read, unread, remove', load: () => import('./corpus/queue.js') },
  { name: 'why', summary: 'why a paper is in the corpus: runs, sources, matched words, what cannot be verified', load: () => import('./corpus/why.js') },
  { name: 'corpus', summary: 'audit the corpus: split documents that hold more than one work', load: () => import('./corpus/audit.js') },
  // area: analytics
  { name: 'analytics', summary: 'corpus and routine analytics: volume, sources, keywords, routine health, discovery lag', load: () => import('./analytics/analytics.js') },
  { name: 'watchdog', summary: 'findings about routines and sources; mute and unmute', load: () => import('./analytics/watchdog.js') },
  { name: 'lifecycle', summary: 'retractions, published preprints and new versions: check, show, status', load: () => import('./analytics/lifecycle.js') },
  // area: profiles
  { name: 'profile', summary: 'watch profiles: follow a person, with the basis of every match', load: () => import('./profile/profile.js') },
  // area: similarity
  { name: 'embed', summary: 'embeddings: status, backfill, cancel, estimate, probe, rebuild', load: () => import('./similarity/embed.js') },
  { name: 'similar', summary: 'papers nearest to one document', load: () => import('./similarity/similar.js') },
  { name: 'links', summary: 'near-duplicate links: scan, status, show, preview (never merges)', load: () => import('./similarity/links.js') },
  // area: admin
  { name: 'backup', summary: 'write a backup bundle; verify one', load: () => import('./admin/backup.js') },
  { name: 'restore', summary: 'stage a restore from a bundle; status, cancel, undo copies', load: () => import('./admin/restore.js') },
  { name: 'cloud', summary: 'cloud copies of backups over WebDAV: link, unlink, status, backup', load: () => import('./admin/cloud.js') },
  { name: 'daemon', summary: 'the background daemon: start, stop, status, attach', load: () => import('./admin/daemon.js') },
  { name: 'service', summary: 'install or remove the service unit that starts the daemon at login', load: () => import('./admin/service.js') },
  { name: 'erase', summary: `erase one scope of data: ${ERASE_WORD_LIST.join(', ')}`, load: () => import('./admin/erase.js') },
  // area: evidence
  { name: 'evidence', summary: 'evidence projects: pinned file versions, anchored notes, page reader, bundles', load: () => import('./evidence/evidence.js') },
  // area: answers
  { name: 'answer', summary: 'selected-evidence answers: preview, send, watch, cancel, list, show, export', load: () => import('./answer/answer.js') },
  // area: assistant
  { name: 'assistant', summary: 'the assistant: status, chat and conversations (new, list, show, export, delete)', load: () => import('./assistant/assistant.js') },
  { name: 'chat', summary: 'talk with the assistant; new, list, show, export and delete conversations', load: () => import('./assistant/chat.js') },
  // area: mcp
  { name: 'mcp', summary: 'serve the MCP tool surface on stdio for agent harnesses', load: () => import('./mcp/mcp.js') },
  { name: 'routes', summary: 'list the HTTP routes the server mounts', load: () => import('./server/routes.js') },
];

/**
 * First words a person tries that svc spells otherwise, each with what to type
 * instead (said where commander would only guess at a similar-looking command).
 */
const INSTEAD: Record<string, string> = {
  search: 'search is not a svc command: `svc dive SOURCE "WORDS"` searches one repository, `svc sweep "WORDS" --sources IDS` several at once (`svc sources` lists them), and `svc explore "WORDS"` the papers already collected',
};

/**
 * `withVersion`: only without a command. Commander reads program options
 * anywhere on the line, so a root --version would swallow a command's own
 * (`svc evidence add P F --version UUID` printed svc's version and exited 0).
 */
function buildProgram(io: Io, withVersion: boolean): Command {
  const program = new Command('svc').description('svc: a local research-paper collector');
  if (withVersion) program.version(svcVersion(), '-V, --version', 'print the version');
  program
    .option('--json', 'print one JSON document on stdout')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')),
      // Said once, as one line, by runCli's catch (which knows the command to point at).
      outputError: () => {},
    });
  program.hook('preAction', (_cmd, action) => {
    io.json = Boolean(action.optsWithGlobals().json);
  });
  return program;
}

/**
 * Commander's parse error as one line that says what to do: its suggestion joins the
 * line ("unknown option '--sortt' (did you mean --sort?)") and the command's help is named.
 */
function usageLine(text: string, command: string): string {
  const joined = text
    .replace(/^error: /, '')
    .replace(/\s*\n\(Did you mean (.+?)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    // Commander ends some messages with a period ("…but got 2."); the line goes on after it.
    .replace(/\.$/, '');
  // "-web testing" is a query excluding a word (svc-corpus(1)), not an option: say how to pass it.
  const dashed = /^unknown option '(-[^-'][^']+)'$/.exec(joined);
  const value = dashed ? ` (a value that starts with - goes last, after --: svc ${command ? `${command} ` : ''}… -- ${JSON.stringify(dashed[1])})` : '';
  return `svc: ${joined}${value}; see svc ${command ? `${command} ` : ''}--help`;
}

/** The command path argv names ("queue list"), as far as the program knows its words. */
function commandPath(program: Command, argv: string[]): string {
  return commandReached(program, argv).words.join(' ');
}

/** The deepest command `argv` names, and the words that name it. */
function commandReached(program: Command, argv: string[]): { command: Command; words: string[] } {
  const words: string[] = [];
  let at = program;
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const next = at.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!next) break;
    words.push(next.name());
    at = next;
  }
  return { command: at, words };
}

/**
 * A group named without one of its commands (`svc corpus`) shows its help on stderr, as commander
 * does; under --json stdout still gets its one document: the group's commands, each with its summary.
 */
function groupCommands(io: Io, program: Command, argv: string[]): number {
  const { command, words } = commandReached(program, argv);
  const commands = command.commands.map((c) => ({ name: c.name(), summary: c.description() }));
  io.out(JSON.stringify({ command: ['svc', ...words].join(' '), commands }, null, 2));
  return EXIT.ok;
}

/** One validation issue as the command line says it: no `body.` prefix, no valibot "received undefined". */
function issueText(issue: ValidationIssue): string {
  const loc = issue.loc[0] === 'body' || issue.loc[0] === 'query' || issue.loc[0] === 'path' ? issue.loc.slice(1) : issue.loc;
  const missing = issue.ctx?.received === 'undefined' && /^Invalid key/.test(issue.msg);
  const msg = missing ? 'is required' : issue.msg.replace(/ but received undefined$/, ' but it is missing');
  return loc.length ? `${loc.join('.')}${missing ? ' ' : ': '}${msg}` : msg;
}

/** What went wrong, in one line that never says "undefined" or "[object Object]". */
export function describeError(err: unknown): { reason: string; message: string } {
  const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
  if (err instanceof ValidationError) return { reason: err.reason, message: oneLine(err.issues.map(issueText).join('; ')) };
  if (err instanceof SvcError) return { reason: err.reason, message: oneLine(err.message) };
  const e = (err ?? {}) as { message?: unknown; code?: unknown; name?: unknown };
  const text = typeof e.message === 'string' && e.message.trim() ? e.message : typeof e.code === 'string' ? `${e.code} (an unexpected error)` : typeof err === 'string' && err.trim() ? err : 'An unexpected error with no message';
  return { reason: 'internal_error', message: oneLine(text) };
}

/** A usage error found before any command runs: one line, and its JSON document under --json. */
function usageFailure(io: Io, line: string, json: boolean): number {
  if (json) io.out(JSON.stringify({ error: 'usage', message: line.replace(/^svc: /, '') }, null, 2));
  io.err(line);
  return EXIT.usage;
}

/** Run the CLI with `argv` (without node and script) and answer the exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  // Parse errors happen before the preAction hook sets io.json.
  const wantsJson = () => io.json || argv.includes('--json');
  const wanted = argv[0] === 'help' ? argv[1] : argv.find((a) => !a.startsWith('-'));
  const entry = COMMANDS.find((c) => c.name === wanted);
  if (wanted === undefined && wantsJson() && argv.some((a) => a === '-V' || a === '--version')) {
    io.out(JSON.stringify({ version: svcVersion() }, null, 2));
    return EXIT.ok;
  }
  if (wanted !== undefined && !entry && Object.hasOwn(INSTEAD, wanted)) return usageFailure(io, `svc: ${INSTEAD[wanted]}; see svc --help`, wantsJson());
  const program = buildProgram(io, wanted === undefined);
  for (const c of COMMANDS) {
    if (c === entry) (await c.load()).register(program, io);
    else program.command(c.name).description(c.summary);
  }
  // A command that leaves (io.leave) is answered for at once, whatever it still waits on.
  const left = new Promise<number>((resolve) => (io.leave = resolve));
  try {
    return await Promise.race([program.parseAsync(argv, { from: 'user' }).then(() => io.exitCode ?? EXIT.ok), left]);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.help' && err.exitCode !== 0 && wantsJson()) return groupCommands(io, program, argv);
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.ok;
      if (err.exitCode === 0) return EXIT.ok;
      return usageFailure(io, usageLine(err.message, commandPath(program, argv)), wantsJson());
    }
    const described = describeError(err);
    const { reason } = described;
    const message = withNextStep(reason, withoutRoute(described.message));
    if (wantsJson()) io.out(JSON.stringify({ error: reason, message }, null, 2));
    io.err(`svc: ${message}`);
    return exitCodeFor(err);
  }
}
