/** The shapes every watchdog producer answers. */
import type { Context } from '../context.js';
import type { Finding, Unjudged } from '../wire/watchdog.js';

export type { Finding, FindingLabel, Unjudged } from '../wire/watchdog.js';

export interface ProducerResult {
  findings: Finding[];
  unjudged: Unjudged[];
}

/** One check: a small function over the stored history. */
export interface Producer {
  check: string;
  /** What it looks at and when it speaks (shown in the answer). */
  describes: string;
  run(ctx: Context): ProducerResult;
}
