/**
 * What `svc routine add` and `edit` refuse before anything is stored, whether a
 * part came as a flag or as an answer to one of add's questions: a name another
 * routine has (names may repeat over HTTP; at a terminal a second "ecology" is a
 * typo far more often than a wish), sources that cannot be searched now, and a
 * source that answers only for a date window in a routine that asks for none.
 * The rules are the service's (findRoutinesNamed, the catalog); only the words
 * differ: `atPrompt` refusals never name a flag the person did not type.
 */
import type { Context } from '../../src/context.js';
import { findRoutinesNamed } from '../../src/routines/service.js';
import { sourcesNeedingDates } from '../../src/sources/catalog.js';
import { usageError } from '../lib/flags.js';
import { unsearchable } from '../search/run-flags.js';

/** Refuse a name another routine has (`exceptId`: the routine being edited). */
export function checkRoutineName(ctx: Context, name: string, exceptId?: number, atPrompt = false): void {
  const same = name ? findRoutinesNamed(ctx, name).filter((id) => id !== exceptId) : [];
  if (same.length === 0) return;
  const fix = atPrompt ? 'choose another name' : 'choose another --name';
  throw usageError(`A routine called "${name}" exists already (id ${same.join(', ')}); ${fix} or change it with \`svc routine edit ${same[0]}\`.`, 'duplicate_name');
}

/** Refuse sources that cannot be searched now; `orcid`: the routine follows a person with an ORCID iD. */
export function checkRoutineSources(ctx: Context, ids: string[], orcid: boolean, atPrompt = false): void {
  const blocked = unsearchable(ctx, ids, { orcid });
  if (!blocked) return;
  const what = blocked.lines.length === 1 ? 'a source that cannot be searched' : 'sources that cannot be searched';
  throw usageError(`${atPrompt ? `That is ${what}` : `--sources names ${what}`} now — ${blocked.lines.join('; ')}`, blocked.reason);
}

/**
 * Refuse a source that answers only for a date interval (bioRxiv, medRxiv) in a routine
 * whose fires ask for no window: every fire would record window_unanswerable for it.
 */
export function checkRoutineWindow(ids: string[], windowDays: number | null | undefined, atPrompt = false): void {
  if (windowDays) return;
  const needing = sourcesNeedingDates(ids).map((s) => s.id);
  if (needing.length === 0) return;
  const names = `${needing.join(' and ')} ${needing.length === 1 ? 'answers' : 'answer'} only for a date interval`;
  const fix = atPrompt ? 'give a number of days' : 'give --window-days N';
  throw usageError(`${names}, so a routine with no date limit would get nothing from ${needing.length === 1 ? 'it' : 'them'}; ${fix} (each fire asks for the papers of the last N days).`, 'dates_required');
}
