/**
 * `--follow <profile id>`, `--follow-mode <mode>` and `--no-follow` of
 * `svc routine add | edit`: the routine's entity. The service checks the
 * entity (400 unknown_profile, invalid_entity_kind, invalid_entity_mode…);
 * here its refusals name the flag. At a terminal one more thing is refused
 * before anything is stored (exit 2, entity_unsupported): a routine none of
 * whose sources can ask about the person, which MCP's create_routine only
 * warns about (entity_warning) because an agent cannot be asked again.
 */
import { SvcError } from '../../src/errors.js';
import { checkEntity, followedProfile, sourcesAskingAbout, type RoutineEntity } from '../../src/routines/entity.js';
import type { Context } from '../../src/context.js';
import { searchableRepositories } from '../../src/sources/catalog.js';
import { findSource } from '../../src/sources/index.js';
import { given, usageError } from '../lib/flags.js';

export interface FollowFlags {
  /** A profile id; false for --no-follow (edit). */
  follow?: string | false;
  followMode?: string;
}

function profileId(raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw.trim())) throw usageError(`--follow takes the id of a person watch profile (\`svc profile list\` lists them), not ${given(raw)}.`, 'invalid_entity_profile');
  return Number(raw.trim());
}

/** The entity of a new routine, or undefined when it follows nobody. */
export function entityToCreate(flags: FollowFlags): Record<string, unknown> | undefined {
  if (typeof flags.follow !== 'string') {
    if (flags.followMode !== undefined) throw usageError('--follow-mode needs --follow <profile id>: the mode says how the routine follows that person.', 'invalid_entity');
    return undefined;
  }
  return { profile_id: profileId(flags.follow), mode: flags.followMode ?? 'new_papers' };
}

/** The entity change of `svc routine edit`: undefined leaves it, null stops following. */
export function entityToUpdate(current: RoutineEntity | null, flags: FollowFlags, routineId: number): Record<string, unknown> | null | undefined {
  if (flags.follow === false) {
    if (flags.followMode !== undefined) throw usageError('--no-follow and --follow-mode contradict each other; give one.', 'invalid_entity');
    return null;
  }
  if (typeof flags.follow === 'string') return { profile_id: profileId(flags.follow), mode: flags.followMode ?? current?.mode ?? 'new_papers' };
  if (flags.followMode === undefined) return undefined;
  if (!current) throw usageError(`Routine ${routineId} follows no watch profile; give --follow <profile id> with --follow-mode.`, 'invalid_entity');
  return { profile_id: current.profile_id, mode: flags.followMode };
}

const FLAG_OF: Record<string, string> = {
  invalid_entity: '--follow',
  invalid_entity_profile: '--follow',
  unknown_profile: '--follow',
  invalid_entity_kind: '--follow',
  invalid_entity_mode: '--follow-mode',
};

/** Run `fn`; an entity refusal of the service comes back naming the flag and the value given. */
export function namingFollowFlags<T>(entity: unknown, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof SvcError) || !FLAG_OF[err.reason]) throw err;
    const e = (entity ?? {}) as { profile_id?: unknown; mode?: unknown };
    const flag = FLAG_OF[err.reason]!;
    const value = flag === '--follow-mode' ? (typeof e.mode === 'string' ? given(e.mode) : undefined) : typeof e.profile_id === 'number' ? String(e.profile_id) : undefined;
    throw new SvcError(err.status, err.reason, `${flag}${value === undefined ? '' : ` ${value}`}: ${err.message}`, err.extra);
  }
}

/** The checked entity and the person it follows (the service's refusals named by flag). */
export function checkFollow(ctx: Context, entity: unknown): { entity: RoutineEntity; person: { id: number; name: string; orcid: string | null } } | null {
  const checked = namingFollowFlags(entity, () => checkEntity(ctx, entity));
  const person = followedProfile(ctx, checked);
  return checked && person ? { entity: checked, person } : null;
}

/**
 * Refuse a followed person none of the sources can ask about (exit 2, entity_unsupported);
 * `atPrompt`: said to a person who picked the sources at `svc routine add`'s questions.
 */
export function requireAuthorSource(ctx: Context, person: { id: number; name: string; orcid: string | null }, repositories: string[], atPrompt = false): void {
  if (sourcesAskingAbout(repositories, person.orcid).length) return;
  const able = searchableRepositories(ctx)
    .repositories.filter((r) => r.searchable && findSource(r.id)?.status === 'active')
    .map((r) => r.id);
  const examples = sourcesAskingAbout(able, null).slice(0, 4);
  const orcidOnly = repositories.filter((id) => (findSource(id) as { capabilities?: { orcidOnly?: boolean } } | undefined)?.capabilities?.orcidOnly);
  const why = orcidOnly.length && !person.orcid ? ` (${orcidOnly.join(', ')} answers only for an ORCID iD, and the profile has none)` : '';
  const none = `none of the sources (${repositories.join(', ')}) can search by author${why}, so no fire could ask for ${person.name}'s papers`;
  throw usageError(atPrompt ? `${none[0]!.toUpperCase()}${none.slice(1)}; pick one that can, e.g. ${examples.join(', ')}.` : `--follow ${person.id}: ${none}; add one that can to --sources, e.g. ${examples.join(', ')}.`, 'entity_unsupported');
}
