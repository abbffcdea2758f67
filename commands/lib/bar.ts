/**
 * A one-line progress bar on stderr when it is a terminal (redrawn in place);
 * otherwise a plain line every `every` milliseconds. Nothing under --json.
 */
import type { Io } from './io.js';

export function progressBar(io: Io, label: string, every = 2000): { update(done: number, total: number, note?: string): void; end(): void } {
  const tty = io.stdoutIsTTY && !io.json;
  let last = 0;
  let drawn = false;
  return {
    update(done, total, note = '') {
      if (io.json) return;
      const now = Date.now();
      if (!tty && now - last < every) return;
      last = now;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      if (tty) {
        const width = 30;
        const full = Math.round(share * width);
        io.err(`${drawn ? '\x1b[1A\x1b[2K' : ''}${label} [${'█'.repeat(full)}${'░'.repeat(width - full)}] ${done}/${total} ${note}`.trimEnd());
        drawn = true;
      } else io.err(`${label}: ${done}/${total} ${note}`.trimEnd());
    },
    end() {
      drawn = false;
    },
  };
}

/** First Ctrl-C asks `onCancel`; a second one leaves at once (130). */
export function onInterrupt(io: Io, message: string, onCancel: () => void): () => void {
  let asked = false;
  const handler = () => {
    if (asked) process.exit(130);
    asked = true;
    io.err(message);
    onCancel();
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
