/**
 * The conversation commands, shared by `svc chat` and `svc assistant`: new,
 * list, show, export, cancel, delete, and the chat action (one message, piped
 * stdin, or an interactive loop on a terminal where Ctrl-C cancels the turn).
 */
import type { Command } from 'commander';
import { requireChoices, type Choices } from '../../src/assistant/choices.js';
import { AGENT_EFFORTS, API_PROVIDERS, findApiProvider } from '../../src/providers/provider-catalog.js';
import { exportSession } from '../../src/assistant/export.js';
import { browseSessions, choicesForNew, createSession, deleteSession, sessionDetail } from '../../src/assistant/sessions.js';
import { cancelTurn, requireRunnable } from '../../src/assistant/turns.js';
import { exitFor, repl, runOneTurn } from './chat-turns.js';
import { listText, showText } from './format.js';
import { confirmDestructive, declined } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { enumFlag, idArg, intFlag, given, usageError } from '../lib/flags.js';
import { emit, outFormat, type Io } from '../lib/io.js';
import { checkOutputFile, writeOutputFile } from '../lib/output-file.js';

export interface NewOpts {
  title?: string;
  runtime?: string;
  provider?: string;
  model?: string;
  effort?: string;
}

/** Choices from flags: none given means the current defaults; some given must make a complete object. */
function choicesFromFlags(o: NewOpts): Choices | undefined {
  if (!o.runtime && !o.provider && !o.model && !o.effort) return undefined;
  const runtime = enumFlag(o.runtime, '--runtime', ['agent_cli', 'api_key'] as const);
  if (!runtime) throw usageError('--runtime is needed with --provider, --model or --effort.');
  // Said in terms of the flags (the choices object is the HTTP body's word), with the values that would do.
  if (runtime === 'api_key') {
    const offered = API_PROVIDERS.map((p) => p.id).join(', ');
    if (!o.provider) throw usageError(`An API connection needs --provider: one of ${offered}.`);
    if (!findApiProvider(o.provider)) throw usageError(`--provider must be one of ${offered} for --runtime api_key, not ${given(o.provider)}.`);
    if (!o.model) throw usageError(`An API connection needs --model: the ${findApiProvider(o.provider)!.label} model id to ask for.`);
    if (o.effort) throw usageError('--effort is for the agent CLI only (--runtime agent_cli); an API connection takes none.');
  } else if (o.provider && o.provider !== 'agent_code') {
    throw usageError(`--runtime agent_cli takes --provider agent_code (or none), not ${given(o.provider)}.`);
  } else if (o.effort && !(AGENT_EFFORTS as readonly string[]).includes(o.effort)) {
    throw usageError(`--effort must be one of ${AGENT_EFFORTS.join(', ')}, not ${given(o.effort)}.`);
  }
  return requireChoices({ version: 1, runtime, provider: o.provider ?? (runtime === 'agent_cli' ? 'agent_code' : ''), model: o.model ?? null, effort: o.effort ?? null });
}

export const withNew = (cmd: Command) =>
  cmd
    .option('--title <text>', 'conversation title')
    .option('--runtime <runtime>', 'agent_cli or api_key (default: the settings)')
    .option('--provider <id>', 'agent_code, or an API provider (see `svc assistant status`)')
    .option('--model <model>', 'model id or agent alias')
    .option('--effort <effort>', 'agent CLI only: low, medium, high, xhigh or max');

/** new, list (alias sessions), show, export, delete under `cmd`. */
export function addConversationCommands(cmd: Command, io: Io): void {
  withNew(cmd.command('new').description('start an empty conversation bound to a connection')).action((o: NewOpts) =>
    withContext(io, (ctx) => {
      const detail = createSession(ctx, { choices: choicesFromFlags(o), title: o.title ?? null });
      const c = detail.choices as { provider?: string; model?: string | null } | null;
      emit(io, detail, () => `Conversation ${detail.session.id} (${c?.provider}, ${c?.model ?? 'runtime default model'})`);
    }),
  );
  cmd.command('list')
    .alias('sessions')
    .description('conversations, newest first')
    .option('--limit <n>', 'rows per page, 1 to 100', '50')
    .option('--query <text>', 'only titles containing this text')
    .option('--before <id>', 'continue below this id')
    .action((o: { limit: string; query?: string; before?: string }) =>
      withContext(io, (ctx) => {
        if (o.query !== undefined && o.query.length > 200) throw usageError('--query may have at most 200 characters.');
        const limit = intFlag(o.limit, '--limit', { min: 1, max: 100 }, 50);
        const page = browseSessions(ctx, { limit, beforeId: o.before ? BigInt(idArg(o.before, 'conversation')) : null, throughId: null, q: o.query || null });
        emit(io, page, () => listText(page, { limit, query: o.query || undefined, before: o.before }));
      }),
    );
  cmd.command('show')
    .argument('<id>', 'conversation id')
    .description('a conversation with its messages and choices')
    .action((id: string) =>
      withContext(io, (ctx) => {
        const d = sessionDetail(ctx, idArg(id, 'conversation'));
        emit(io, d, () => showText(d));
      }),
    );
  cmd.command('export')
    .argument('<id>', 'conversation id')
    .option('--format <format>', 'json or markdown', 'json')
    .option('-o, --output <file>', 'write the export to this file (created owner-only)')
    .description('export a conversation as JSON or Markdown')
    .action((id: string, o: { format: string; output?: string }) =>
      withContext(io, (ctx) => {
        // Never over an existing file (no --force): a conversation export names a new file.
        const into = { existsHint: 'name a new file' };
        const format = enumFlag(o.format, '--format', ['json', 'markdown'] as const)!;
        if (o.output) checkOutputFile(o.output, into);
        const env = exportSession(ctx, idArg(id, 'conversation'), format);
        if (o.output) writeOutputFile(o.output, env.text, into);
        if (io.json) emit(io, { ...env, ...(o.output ? { written_to: o.output, text: undefined } : {}) }, () => '');
        else if (o.output) io.err(`Wrote ${env.filename} to ${o.output}`);
        else outFormat(io, env.text);
      }),
    );
  cmd.command('cancel')
    .argument('<id>', 'conversation id')
    .description("stop the conversation's running turn, in this or another process (the desktop through the server)")
    .action((id: string) =>
      withContext(io, (ctx) => {
        const answer = cancelTurn(ctx, idArg(id, 'conversation'));
        emit(io, answer, () => answer.message);
      }),
    );
  cmd.command('delete')
    .argument('<id>', 'conversation id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('delete a conversation and its messages')
    .action((id: string, o: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        const n = idArg(id, 'conversation');
        sessionDetail(ctx, n); // 404 before asking
        if (!(await confirmDestructive(io, `Delete conversation ${n} and its messages?`, o.yes))) return declined(io, { id: n });
        emit(io, deleteSession(ctx, n), () => `Conversation ${n} deleted.`);
      }),
    );
}

/**
 * The chat action on `cmd`: [id] and -m, plus the new-conversation flags when
 * `choiceFlags` (not on `svc chat` itself, whose subcommand `new` takes them:
 * commander would give a parent's option to the parent).
 */
export function addChatAction(cmd: Command, io: Io, choiceFlags = true): Command {
  const base = cmd.argument('[id]', 'conversation to continue (default: a new one, with the default choices)').option('-m, --message <text>', 'send one message and exit');
  return (choiceFlags ? withNew(base) : base)
    .description('talk with the assistant: one message, piped stdin, or an interactive loop on a terminal (Ctrl-C cancels the answer, not the program)')
    .action((id: string | undefined, o: NewOpts & { message?: string }) =>
      withContext(io, async (ctx) => {
        const interactive = o.message === undefined && io.stdinIsTTY && io.stdoutIsTTY && !io.json;
        const text = interactive ? '' : (o.message ?? (await io.readStdin()).replace(/\r?\n$/, ''));
        if (!interactive && !text.trim()) throw usageError('Nothing to send: give --message or pipe text on stdin.', 'empty_message');
        let conversation: number | (() => number);
        if (id) {
          conversation = idArg(id, 'conversation');
          sessionDetail(ctx, conversation);
        } else {
          // A new conversation is created with its first message, never before: nothing to send, or a
          // connection that cannot run here, leaves no empty conversation behind.
          const choices = choicesFromFlags(o);
          requireRunnable(ctx, choicesForNew(ctx, choices).choices);
          conversation = () => createSession(ctx, { choices, title: o.title ?? null }).session.id;
        }
        if (interactive) return repl(ctx, io, conversation);
        const sessionId = typeof conversation === 'number' ? conversation : conversation();
        const outcome = await runOneTurn(ctx, io, sessionId, text);
        if (io.json) io.out(JSON.stringify(outcome, null, 2));
        io.exitCode = exitFor(outcome.status);
      }),
    );
}
