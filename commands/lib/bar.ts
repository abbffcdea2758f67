/**
 * A one-line progress bar on stderr, redrawn in place, when svc runs on a
 * terminal (see drawsOnTerminal). Piped or under --json it is quiet: the
 * command's result says what was done.
 */
import { EXIT } from './exit-codes.js';
import { drawsOnTerminal, type Io } from './io.js';

/** The spinner every line of svc's that waits on something draws, one frame per tick. */
export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function progressBar(io: Io, label: string): { update(done: number, total: number, note?: string): void; end(): void } {
  const tty = drawsOnTerminal(io);
  let drawn = false;
  return {
    update(done, total, note = '') {
      if (!tty) return;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const width = 30;
      const full = Math.round(share * width);
      io.err(`${drawn ? '\x1b[1A\x1b[2K' : ''}${label} [${'█'.repeat(full)}${'░'.repeat(width - full)}] ${done}/${total} ${note}`.trimEnd());
      drawn = true;
    },
    end() {
      drawn = false;
    },
  };
}

/**
 * A status line for work done in steps: on a terminal one line redrawn in
 * place; piped, one plain line per step (a log, where the command's page
 * promises one); nothing under --json.
 */
export function statusLine(io: Io): (text: string) => void {
  const tty = drawsOnTerminal(io);
  let drawn = false;
  return (text) => {
    if (io.json) return;
    io.err(tty ? `${drawn ? '\x1b[1A' : ''}\x1b[2K${text}` : text);
    drawn = tty;
  };
}

/** First Ctrl-C asks `onCancel`; a second one leaves at once (130). */
export function onInterrupt(io: Io, message: string, onCancel: () => void): () => void {
  let asked = false;
  const handler = () => {
    if (asked) {
      io.leave?.(EXIT.interrupted);
      return;
    }
    asked = true;
    io.err(message);
    onCancel();
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
