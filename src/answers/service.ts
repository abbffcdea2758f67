/**
 * The answers service of one process: limits, the preview store, the live
 * runs (their abort controllers and event hubs) and the outside world the
 * runtimes use (process spawning). Built once per Context; tests configure
 * smaller limits and a fake agent first.
 */
import { spawn as nodeSpawn } from 'node:child_process';
import type { Context } from '../context.js';
import type { Spawner } from '../providers/agent-cli.js';
import { DEFAULT_ANSWER_LIMITS, type AnswerLimits } from './limits.js';
import type { PreviewEntry } from './previews.js';
import type { LiveRun } from './live.js';

export interface AnswersOptions {
  limits?: Partial<AnswerLimits>;
  spawn?: Spawner;
}

export interface Answers {
  ctx: Context;
  limits: AnswerLimits;
  spawn: Spawner;
  previews: Map<string, PreviewEntry>;
  /** Whether a preview is being assembled now (one at a time). */
  assembling: boolean;
  live: Map<string, LiveRun>;
  /** Cancelled runs whose cleanup is not confirmed yet (they block admission). */
  cleaning: Set<string>;
}

const KEY = 'answers';

function build(ctx: Context, options: AnswersOptions): Answers {
  const answers: Answers = {
    ctx,
    limits: { ...DEFAULT_ANSWER_LIMITS, ...options.limits },
    spawn: options.spawn ?? nodeSpawn,
    previews: new Map(),
    assembling: false,
    live: new Map(),
    cleaning: new Set(),
  };
  ctx.onClose(async () => {
    for (const run of answers.live.values()) run.stop('shutdown');
    await Promise.allSettled([...answers.live.values()].map((r) => r.done));
  });
  return answers;
}

/** Set limits for this Context before anything else uses answers (tests). */
export function configureAnswers(ctx: Context, options: AnswersOptions): Answers {
  const answers = ctx.service(KEY, () => build(ctx, options));
  // The server's start already built it (recovery of interrupted runs): apply the options now.
  Object.assign(answers.limits, options.limits);
  if (options.spawn) answers.spawn = options.spawn;
  return answers;
}

export function answersOf(ctx: Context): Answers {
  return ctx.service(KEY, () => build(ctx, {}));
}
