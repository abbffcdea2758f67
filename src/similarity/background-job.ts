/**
 * A long similarity job (a link scan, an embedding backfill) started in the
 * background from a route: the caller is answered once the job's run row
 * exists, or with what stopped it before (a refusal such as one already
 * running, no lane, no key). The process's slot names the job only once it
 * runs, so a refused start never replaces a running one; a cancel in this
 * process sets the job's flag, and one from anywhere reaches it through its
 * claim (claims/jobs.ts).
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { describeHolder, requestJobCancel, type JobHolder, type JobName } from '../claims/jobs.js';

export interface BackgroundJob {
  /** The run row's id, once it exists. */
  id: number;
  cancel: boolean;
  done: Promise<unknown>;
}

export type JobSlot = { current: BackgroundJob | null };

/** What the job's run takes from its starter. */
export interface StartHooks {
  isCancelled: () => boolean;
  onStart: (runId: number) => void;
}

/**
 * Run `run` in the background; answers its run id once it started. `refusals`: reasons that
 * answer the caller and are not failures to log.
 */
export async function startInBackground(ctx: Context, slot: JobSlot, what: string, refusals: readonly string[], run: (hooks: StartHooks) => Promise<unknown>): Promise<number> {
  const job: BackgroundJob = { id: 0, cancel: false, done: Promise.resolve() };
  let started!: (outcome: { id: number } | { error: unknown }) => void;
  const startedP = new Promise<{ id: number } | { error: unknown }>((r) => (started = r));
  job.done = run({ isCancelled: () => job.cancel, onStart: (id) => ((job.id = id), (slot.current = job), started({ id })) })
    .catch((err) => {
      if (!(err instanceof SvcError && refusals.includes(err.reason))) ctx.log.warn(`${what} failed`, { error: err instanceof Error ? err.message : String(err) });
      started({ error: err });
    })
    .finally(() => {
      if (slot.current === job) slot.current = null;
    });
  const outcome = await startedP;
  if ('error' in outcome) throw outcome.error;
  return outcome.id;
}

/** A cancel's answer; the run's id goes under the route's own name (`run_id` for a backfill, `scan_id` for a scan). */
export type CancelAnswer<K extends string> = { cancel_requested: boolean } & { [P in K]: number | null } & { running_in: JobHolder | null; message: string };

/**
 * Ask a background job to stop, in whichever process runs it: this process's
 * slot at once, any process through the claim's flag. `stops` says what the
 * stop keeps, given where the job runs (empty here, " in …" elsewhere).
 */
export function cancelInBackground<K extends string>(
  ctx: Context,
  slot: JobSlot,
  job: JobName,
  idKey: K,
  say: { none: string; stops: (where: string) => string },
): CancelAnswer<K> {
  if (slot.current) slot.current.cancel = true;
  const holder = requestJobCancel(ctx, job);
  const answer = (requested: boolean, id: number | null, message: string) =>
    ({ cancel_requested: requested, [idKey]: id, running_in: holder, message }) as CancelAnswer<K>;
  if (!holder) return answer(false, null, say.none);
  return answer(true, holder.run_id, say.stops(holder.here ? '' : ` in ${describeHolder(holder)}`));
}
