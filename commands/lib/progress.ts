/**
 * Live progress of a run, read from the execution's event iterator (the same
 * one the SSE route serves). On a terminal: one line per source, redrawn in
 * place. Piped: one line per event.
 */
import type { Context } from '../../src/context.js';
import { followEvents, type ExecutionEvent } from '../../src/executions/events.js';
import { logLine } from '../../src/executions/log.js';
import { nothingReason } from '../../src/executions/zero-reasons.js';
import { SPINNER } from './bar.js';
import { drawsOnTerminal, type Io } from './io.js';
import { count, oneLine } from './words.js';

interface SourceLine {
  state: string;
  detail: string;
}

/** Whether progress is drawn in place (a terminal, not --json): then notes go through `footer`, not io.err. */
export const drawsInPlace = (io: Io) => drawsOnTerminal(io);

/**
 * `footer` answers a line to keep under the sources (e.g. "Cancelling…"):
 * printing it separately would shift the lines being redrawn and leave
 * spinner residue behind.
 */
export async function showProgress(ctx: Context, io: Io, executionId: number, repositories: string[], signal: AbortSignal, footer: () => string | undefined = () => undefined): Promise<void> {
  const tty = drawsInPlace(io);
  const lines = new Map<string, SourceLine>(repositories.map((r) => [r, { state: 'waiting', detail: '' }]));
  const width = Math.max(...repositories.map((r) => r.length));
  let drawn = 0;
  let frame = 0;
  const draw = (final = false) => {
    const text = repositories.map((r) => {
      const line = lines.get(r)!;
      // The last frame has no spinner: a source still asking when the run ended was stopped.
      const asking = line.state === 'asking' || (final && line.state === 'waiting');
      const mark = asking ? (final ? '■' : SPINNER[frame % SPINNER.length]) : line.state === 'done' ? '✔' : line.state === 'nothing' ? '✖' : '·';
      return `${mark} ${r.padEnd(width)}  ${asking && final ? 'stopped' : line.detail}`;
    });
    const note = final ? undefined : footer();
    if (note) text.push(note);
    // A shorter frame than the last one: clear the lines left below it.
    while (text.length < drawn) text.push('');
    io.err((drawn ? `\x1b[${drawn}A` : '') + text.map((t) => `\x1b[2K${t}`).join('\n'));
    drawn = text.length;
  };
  const update = (event: ExecutionEvent) => {
    if (!event.source) return;
    const line = lines.get(event.source);
    if (!line) return;
    const data = event.data ?? {};
    if (event.kind === 'source_started') Object.assign(line, { state: 'asking', detail: 'asking…' });
    if (event.kind === 'source_page') Object.assign(line, { state: 'asking', detail: `page ${data.page}: ${data.kept} kept${data.total !== null ? ` of ${data.total} reported` : ''}` });
    if (event.kind === 'source_finished') {
      const records = Number(data.records ?? 0);
      Object.assign(line, records > 0 ? { state: 'done', detail: `${count(records, 'record')} (${data.new} new)` } : { state: 'nothing', detail: `nothing: ${nothingReason(data.zero_reason as string | null, null, data.cancelled === true)}` });
    }
  };
  const ticker = tty ? setInterval(() => (frame++, draw()), 120) : undefined;
  try {
    if (tty) draw();
    for await (const event of followEvents(ctx, executionId, 0, signal, 250)) {
      if (tty) {
        update(event);
        draw();
      } else if (!io.json) io.err(oneLine(logLine(event))); // an event quotes the query and what sources answered
    }
  } finally {
    if (ticker) clearInterval(ticker);
    if (tty) draw(true);
  }
}
