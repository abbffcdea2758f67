/**
 * The search one fire runs: the routine's parameters with its relative window
 * turned into dates. window_days N asks from N days before the (first) due
 * time to the run's date; since_last_success starts at the date of the last
 * completed run instead, so missed fires leave no gap once a run succeeds.
 * Dates are UTC calendar days and inclusive; the overlap of a day between runs
 * is deliberate (the corpus keeps one copy of a paper).
 */
import type { Context } from '../context.js';
import type { RunSpec } from '../executions/request.js';
import { entityAuthor } from './entity.js';
import { storedAiSettings } from '../executions/ai-settings.js';
import { lastSuccessStart, valuesOf, type RoutineRow } from './repo.js';

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface FireTimes {
  /** The earliest due time this run stands for (coalesced fires), or now for a manual run. */
  firstDueAtUtc: string;
}

export function windowFor(ctx: Context, row: RoutineRow, fire: FireTimes): { dateFrom: string | null; dateTo: string | null } {
  const p = valuesOf(row).parameters;
  const today = dateOf(ctx.clock.now().getTime());
  if (p.since_last_success) {
    const last = lastSuccessStart(ctx.db, row.id);
    if (last) return { dateFrom: last.slice(0, 10), dateTo: today };
  }
  if (p.window_days !== null) {
    const from = dateOf(Date.parse(fire.firstDueAtUtc) - p.window_days * DAY_MS);
    return { dateFrom: from < today ? from : today, dateTo: today };
  }
  return { dateFrom: null, dateTo: null };
}

export function runSpecFor(ctx: Context, row: RoutineRow, fire: FireTimes): RunSpec {
  const values = valuesOf(row);
  const p = values.parameters;
  const window = windowFor(ctx, row, fire);
  const raw = values.ai_settings ?? p.ai_settings;
  const ai = raw ? storedAiSettings(raw) : { settings: null, ignored: [] };
  const followed = entityAuthor(ctx, values.entity);
  return {
    type: 'routine',
    repositories: p.repositories,
    query: p.query,
    keywords: p.keywords,
    dateFrom: window.dateFrom,
    dateTo: window.dateTo,
    maxResults: p.max_results,
    aiEnabled: values.ai_enabled || p.ai_enabled,
    // A stored value from before ai_settings keys were checked may hold others (even a key): the run keeps only what svc uses.
    aiSettings: ai.settings,
    ...(ai.ignored.length ? { aiSettingsIgnored: ai.ignored } : {}),
    requestId: null,
    savedConfigurationId: p.saved_configuration_id,
    routineId: row.id,
    author: followed?.author ?? null,
    authorOrcid: followed?.authorOrcid ?? null,
    follow: values.entity ? { profileId: values.entity.profile_id, mode: values.entity.mode } : null,
  };
}
