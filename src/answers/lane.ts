/**
 * What a runtime lane is: one request in, a stream of events out. Lanes
 * never retry, never send tools or history, and throw LaneError for a
 * broken operation limit or protocol (the run saves it as failed).
 */
import type { Context } from '../context.js';
import type { Spawner } from '../providers/agent-cli.js';
import type { AnswerLimits } from './limits.js';
import type { RequestPayload } from './types.js';

export type LaneEvent =
  | { type: 'text'; text: string }
  | { type: 'model'; model: string; source: string }
  | { type: 'usage'; inputTokens: number | null; outputTokens: number | null; source: string }
  | { type: 'native_session'; id: string }
  | { type: 'progress'; stage: string }
  | { type: 'done'; stopReason: string | null };

export interface LaneJob {
  ctx: Context;
  limits: AnswerLimits;
  payload: RequestPayload;
  system: string;
  user: string;
  signal: AbortSignal;
  spawn: Spawner;
}

export type Lane = (job: LaneJob) => AsyncGenerator<LaneEvent>;

export class LaneError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
  }
}
