/**
 * The event log of an execution: its log, its polled progress and its SSE
 * stream are all read from here. Events are numbered per execution (seq) in
 * the database, so any process can read them; the in-process bus only wakes
 * followers early.
 */
import type { Context } from '../context.js';
import { sleep } from '../util/sleep.js';
import { getExecution } from './repo.js';

import type { RunEvent as ExecutionEvent, RunEventKind as EventKind } from '../wire/executions.js';

export type { RunEvent as ExecutionEvent, RunEventKind as EventKind } from '../wire/executions.js';

export const TERMINAL_KINDS: ReadonlySet<string> = new Set(['execution_completed', 'execution_failed', 'execution_cancelled', 'execution_interrupted']);

interface EventRow extends Omit<ExecutionEvent, 'data'> {
  data_json: string | null;
}

const topic = (id: number) => `execution:${id}`;
const fromRow = ({ data_json, ...row }: EventRow): ExecutionEvent => ({ ...row, data: data_json ? JSON.parse(data_json) : null });

export function appendEvent(
  ctx: Context,
  executionId: number,
  kind: EventKind,
  message: string,
  options: { level?: ExecutionEvent['level']; source?: string | null; data?: Record<string, unknown> } = {},
): ExecutionEvent {
  const at = ctx.nowIso();
  const seq = ctx.db
    .prepare(
      `INSERT INTO execution_events (execution_id, seq, at_utc, kind, level, source, message, data_json)
       SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM execution_events WHERE execution_id = ? RETURNING seq`,
    )
    .pluck()
    .get(executionId, at, kind, options.level ?? 'info', options.source ?? null, message, options.data ? JSON.stringify(options.data) : null, executionId) as number;
  const event: ExecutionEvent = { execution_id: executionId, seq, at_utc: at, kind, level: options.level ?? 'info', source: options.source ?? null, message, data: options.data ?? null };
  ctx.bus.emit(topic(executionId), event);
  return event;
}

export function listEvents(ctx: Context, executionId: number, after = 0, limit = 1000): ExecutionEvent[] {
  const rows = ctx.db.prepare('SELECT * FROM execution_events WHERE execution_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(executionId, after, limit) as EventRow[];
  return rows.map(fromRow);
}

/**
 * Every event after `after`, then new ones as they come, ending with the
 * terminal event (or when the execution is no longer running and nothing more
 * is recorded). Polls the database as a fallback, so it follows runs owned by
 * another process too.
 */
export async function* followEvents(ctx: Context, executionId: number, after: number, signal: AbortSignal, pollMs = 1000): AsyncGenerator<ExecutionEvent> {
  let wake: (() => void) | undefined;
  const unsubscribe = ctx.bus.on(topic(executionId), () => wake?.());
  let last = after;
  try {
    for (;;) {
      const batch = listEvents(ctx, executionId, last, 500);
      for (const event of batch) {
        last = event.seq;
        yield event;
        if (TERMINAL_KINDS.has(event.kind)) return;
      }
      if (batch.length === 500) continue;
      const row = getExecution(ctx.db, executionId);
      if (!row || row.status !== 'running') {
        if (listEvents(ctx, executionId, last, 1).length === 0) return;
        continue;
      }
      if (signal.aborted) return;
      await new Promise<void>((resolve) => {
        const waiter = new AbortController();
        const stop = () => {
          waiter.abort();
          resolve();
        };
        wake = stop;
        sleep(pollMs, AbortSignal.any([signal, waiter.signal])).then(stop, stop);
      });
      wake = undefined;
    }
  } finally {
    unsubscribe();
  }
}
