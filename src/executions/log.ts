/** The log of an execution: its events as dated lines. */
import type { ExecutionEvent } from './events.js';

export function logLine(event: ExecutionEvent): string {
  const source = event.source ? ` [${event.source}]` : '';
  return `${event.at_utc} ${event.level.toUpperCase().padEnd(5)}${source} ${event.message}`;
}

export function renderLog(events: ExecutionEvent[]): string {
  return events.map(logLine).join('\n') + (events.length ? '\n' : '');
}
