/**
 * Mode "retractions" of a routine that follows a watch profile. The fire
 * still asks the sources for the person's papers (so the set of their papers
 * stays current); then this step checks the papers matched to the profile for
 * lifecycle notices, at most `followCheckLimit` (tuning) a fire, never tried
 * first, then least recently tried, whether that try succeeded or not (so the
 * next fire resumes where this one stopped, and papers whose lookups always
 * fail take their turn without holding the others back), with the
 * lifecycle check's own lookups (Crossref update-to/updated-by and relations,
 * arXiv versions, OpenAlex, PubMed; each source's rate limit), except that a
 * source the fire's search has just answered about a paper is not asked about
 * it again: its record, stored by the search, is that source's answer. The run's news
 * is then the events on those papers that the routine has not reported yet,
 * whichever check recorded them: retractions, and corrections and new
 * versions (version_change). A preprint's published version is no notice
 * about the paper's standing, so it is recorded but not reported here.
 *
 * Nothing here fails the run: a lookup that fails is recorded on the paper's
 * check and in the fire's record; an unexpected error ends the check and is
 * recorded; the run's status stays what the search made it.
 */
import type { Context } from '../context.js';
import type { RunSpec } from '../executions/request.js';
import { matchRunDocuments } from '../profiles/match.js';
import { getProfile } from '../profiles/repo.js';
import { checkSlice, SLICE_SIZE } from '../lifecycle/check.js';
import * as repo from './repo.js';
import { buildClients, type FreshRecords } from '../lifecycle/lookups.js';
import type { EventKind, TargetDocument } from '../lifecycle/repo.js';
import type { NormalizedRecord } from '../sources/types.js';
import { eventView, KIND_MEANING } from '../lifecycle/service.js';
import { count } from '../util/words.js';
import type { FollowNews } from '../wire/executions.js';

/** What mode "retractions" reports as news. */
export const FOLLOW_NEWS_KINDS: readonly EventKind[] = ['retraction', 'version_change'];

const ROUTINE_DELETED = 'the routine was deleted during the run, so no notice was kept as reported for it (`svc lifecycle` lists the recorded ones)';

const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/** A line of the run's own log (its execution events), kept by the run that asks for the check. */
export type RunLog = (message: string, options?: { level?: 'info' | 'warn'; data?: Record<string, unknown> }) => void;

/** The after-search step of a fire (executions/runner.ts); a no-op unless the run follows a profile for retractions. */
export async function checkFollowedPapers(ctx: Context, executionId: number, spec: RunSpec, signal: AbortSignal, runLog: RunLog): Promise<void> {
  const follow = spec.follow;
  if (!follow || follow.mode !== 'retractions' || spec.routineId === null) return;
  try {
    await check(ctx, executionId, spec.routineId, follow.profileId, signal, runLog);
  } catch (err) {
    // Never the run's outcome: the record and the log say what happened.
    ctx.log.error(`the lifecycle check of execution ${executionId} failed`, { error: describe(err) });
    runLog(`Lifecycle check of the followed profile's papers failed: ${describe(err)}`, { level: 'warn' });
  }
}

async function check(ctx: Context, executionId: number, routineId: number, profileId: number, signal: AbortSignal, runLog: RunLog): Promise<void> {
  const profile = getProfile(ctx.db, profileId);
  if (!profile) {
    runLog(`Watch profile ${profileId} is gone: no lifecycle check this run.`, { level: 'warn' });
    return;
  }
  // The papers this fire brought in are the person's at once (the after-run step then leaves this run's matching alone: matchedByFollowCheck).
  matchRunDocuments(ctx, executionId);
  const papers = repo.countProfilePapers(ctx.db, profileId);
  repo.startFollowCheck(ctx.db, { execution_id: executionId, routine_id: routineId, profile_id: profileId, profile_name: profile.name, papers, started_at_utc: ctx.nowIso() });
  const docs = repo.profilePapersToCheck(ctx.db, profileId, ctx.tuning.followCheckLimit);
  runLog(`Lifecycle check of ${profile.name}'s papers: ${docs.length} of ${papers} matched, least recently tried first`, { data: { profile_id: profileId, papers, to_check: docs.length } });
  let error: string | null = null;
  const totals = { checked: 0, failed: 0 };
  try {
    const clients = buildClients(ctx, signal);
    // What the fire's search just answered about these papers is not asked of the same source again.
    const fresh = freshRecords(ctx, executionId, docs);
    for (let i = 0; i < docs.length && !signal.aborted; i += SLICE_SIZE) {
      const added = await checkSlice(ctx, clients, docs.slice(i, i + SLICE_SIZE), null, signal, (a) => repo.progressFollowCheck(ctx.db, executionId, a), fresh);
      totals.checked += added.checked;
      totals.failed += added.failed;
    }
  } catch (err) {
    error = signal.aborted ? 'the run was cancelled during the check' : `the check stopped on an unexpected error (${describe(err)})`;
    if (!signal.aborted) ctx.log.error(`lifecycle check of execution ${executionId} stopped`, { error: describe(err) });
  }
  // What is recorded is news, however far the check got (earlier checks count too). A routine deleted
  // during the fire keeps no record of what it reported (its rows would have nothing to refer to).
  const news = repo.claimNewEvents(ctx.db, routineId, profileId, executionId, FOLLOW_NEWS_KINDS);
  if (news === null) error ??= ROUTINE_DELETED;
  repo.finishFollowCheck(ctx.db, executionId, error, ctx.nowIso());
  const failedNote = totals.failed ? `; ${totals.failed} could not be checked` : '';
  const newsNote = news === null ? '' : `; ${count(news, 'new notice')}`;
  runLog(`Lifecycle check: ${totals.checked} checked${failedNote}${newsNote}${error ? `; ${error}` : ''}`, {
    level: error || totals.failed ? 'warn' : 'info',
    data: { checked: totals.checked, failed: totals.failed, new_notices: news, error },
  });
}

function freshRecords(ctx: Context, executionId: number, docs: TargetDocument[]): FreshRecords {
  const fresh: FreshRecords = new Map();
  for (const row of repo.recordsOfRun(ctx.db, executionId, docs.map((d) => d.id))) {
    fresh.set(row.document_id, [...(fresh.get(row.document_id) ?? []), { source: row.source, record: JSON.parse(row.record_json) as NormalizedRecord }]);
  }
  return fresh;
}

/**
 * Whether this run's papers were matched to the profiles by its follow check (mode retractions matches
 * them before checking): the after-run matching step then has nothing left to do for the run.
 */
export function matchedByFollowCheck(ctx: Context, executionId: number): boolean {
  return repo.getFollowCheck(ctx.db, executionId) !== undefined;
}

export type { FollowNews } from '../wire/executions.js';

/** What a fire of a routine following a profile for retractions checked and reported; null for any other run. */
export function followNews(ctx: Context, executionId: number): FollowNews | null {
  const row = repo.getFollowCheck(ctx.db, executionId);
  if (!row) return null;
  const events = repo.reportedEvents(ctx.db, executionId, row.profile_id).map((e) => ({ ...eventView(e), basis: e.basis, matched_author: e.matched_author }));
  return {
    profile_id: row.profile_id,
    profile_name: row.profile_name,
    mode: 'retractions' as const,
    papers: row.papers,
    checked: row.checked,
    failed: row.failed,
    /** Matched papers this fire did not reach (the bound, or a stop): the next fires take them first. */
    not_reached: Math.max(0, row.papers - row.checked - row.failed),
    check_limit: ctx.tuning.followCheckLimit,
    lookup_errors: JSON.parse(row.lookup_errors_json) as string[],
    error: row.error,
    events,
    kinds_reported: FOLLOW_NEWS_KINDS,
    what_a_kind_means: Object.fromEntries(FOLLOW_NEWS_KINDS.map((k) => [k, KIND_MEANING[k]])),
  };
}
