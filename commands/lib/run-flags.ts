import type { Command } from 'commander';
import { SvcError } from '../../src/errors.js';

export interface RunFlags {
  from?: string;
  to?: string;
  max?: string;
  keywords?: string;
  requestId?: string;
}

/** The flags dive and sweep share. */
export function runOptions(command: Command): Command {
  return command
    .option('--from <date>', 'earliest publication date, YYYY-MM-DD')
    .option('--to <date>', 'latest publication date, YYYY-MM-DD')
    .option('--max <n>', 'results per source (default 100, at most 10000)')
    .option('--keywords <list>', 'comma-separated keywords that must also match')
    .option('--request-id <id>', 'an id that makes resubmitting the same run answer the running one');
}

/** Flags → the request body fields the HTTP door also takes (validated by the same schema). */
export function requestBody(flags: RunFlags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (flags.from) body.date_from = flags.from;
  if (flags.to) body.date_to = flags.to;
  if (flags.max !== undefined) {
    if (!/^\d+$/.test(flags.max)) throw new SvcError(400, 'invalid_max', `--max must be a whole number, not "${flags.max}".`);
    body.max_results = Number(flags.max);
  }
  if (flags.keywords) body.keywords = flags.keywords.split(',').map((k) => k.trim()).filter(Boolean);
  if (flags.requestId) body.request_id = flags.requestId;
  return body;
}
