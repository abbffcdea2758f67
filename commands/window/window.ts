/**
 * svc window: the desktop shell. It serves the window on its own origin,
 * attaches to the daemon (or starts a fallback backend), opens the browser at
 * a one-time launch link — or prints it with --no-open, or prints one JSON
 * line with --json — and stays up until Ctrl-C (exit 130), SIGTERM or
 * SIGHUP (exit 0), or until its fallback stops by its own rule (exit 0).
 * The shell's logic is in src/window/.
 */
import type { Command } from 'commander';
import { commandContext } from '../lib/context.js';
import type { Backend } from '../../src/window/backend.js';
import { EXIT } from '../lib/exit-codes.js';
import { intFlag } from '../lib/flags.js';
import type { Io } from '../lib/io.js';

interface WindowOptions {
  port?: string;
  open: boolean;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function register(program: Command, io: Io): void {
  program
    .command('window')
    .description('open svc in your browser: the daemon or a backend of its own, on a one-time launch link')
    .option('--port <n>', "the window's port on 127.0.0.1 (default: a free port)")
    .option('--no-open', 'print the launch link instead of opening the browser')
    .action(async (opts: WindowOptions) => {
      const port = intFlag(opts.port, '--port', { min: 0, max: 65535 });
      const ctx = commandContext(io);
      try {
        const { startWindow } = await import('../../src/window/start.js');
        const running = await startWindow({ ctx, env: io.env, port, say: (line) => io.err(line) });
        const stop = stopAsked(running.ended);
        const backend = running.backend();
        if (io.json) io.out(JSON.stringify({ url: running.url, renderer_origin: running.rendererOrigin, backend: { base_url: backend.baseUrl, role: backend.role } }));
        else if (!opts.open) io.out(running.url);
        if (!io.json) io.err(`svc window: serving the window on ${running.rendererOrigin}; ${backendWords(backend)}. Ctrl-C closes it.`);
        if (opts.open) await open(io, running.url);
        const why = await stop;
        const released = await running.close();
        io.err(`svc window: ${why.signal ? `closed (${why.signal})` : `closed: ${why.text}`}${released ? `; its backend (pid ${released.pid}) stops as soon as nothing runs in it (a run in flight finishes first: svc executions lists it)` : ''}.`);
        io.exitCode = why.signal === 'SIGINT' ? EXIT.interrupted : EXIT.ok;
      } finally {
        await ctx.close();
      }
    });
}

function backendWords(b: Backend): string {
  return b.role === 'daemon'
    ? `the daemon answers on ${b.baseUrl}`
    : `no daemon runs, so a backend of its own answers on ${b.baseUrl} (scheduled routines need the daemon: svc daemon start, or the button in the window)`;
}

/** What ends the shell: a signal, or the window's end by the backend's own rule. */
function stopAsked(ended: Promise<{ why: string }>): Promise<{ signal?: string; text?: string }> {
  return new Promise((resolve) => {
    const handlers = STOP_SIGNALS.map((signal) => [signal, () => done({ signal })] as const);
    const done = (why: { signal?: string; text?: string }) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(why);
    };
    for (const [signal, handler] of handlers) process.on(signal, handler);
    void ended.then(({ why }) => done({ text: why }));
  });
}

async function open(io: Io, url: string): Promise<void> {
  const { openBrowser } = await import('../../src/window/open-browser.js');
  try {
    await openBrowser(url);
  } catch (err) {
    io.err(`svc window: the browser could not be opened (${err instanceof Error ? err.message : String(err)}); open this link yourself, once: ${url}`);
  }
}
