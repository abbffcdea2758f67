/**
 * A routine's `entity` (profile_id plus mode new_papers or retractions) makes
 * it follow a watch profile. The spec answers a bad profile id, mode or
 * profile kind with 400, not 422. Only person profiles can be followed: a fire
 * asks the sources that search by author (by ORCID iD where the source can,
 * by name otherwise), and a group has no author search.
 */
import type { Context } from '../context.js';
import { badRequest } from '../errors.js';
import { getProfile } from '../profiles/repo.js';
import { findSource } from '../sources/index.js';
import type { EntityMode, RoutineEntity } from '../wire/routines.js';

export type { RoutineEntity } from '../wire/routines.js';

export const ENTITY_MODES = ['new_papers', 'retractions'] as const satisfies readonly EntityMode[];

/** null for no entity; a checked entity; or a 400 naming what is wrong. */
export function checkEntity(ctx: Context, raw: unknown): RoutineEntity | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw badRequest('invalid_entity', 'entity must be an object {"profile_id": <integer>, "mode": "new_papers" | "retractions"}, or null.');
  }
  const { profile_id: profileId, mode, ...rest } = raw as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw badRequest('invalid_entity', `entity takes profile_id and mode only, not ${extra.map((k) => `"${k.slice(0, 32)}"`).join(', ')}.`);
  if (typeof profileId !== 'number' || !Number.isInteger(profileId) || profileId < 1) {
    throw badRequest('invalid_entity_profile', 'entity.profile_id must be the positive integer id of a watch profile.', { profile_id: profileId ?? null });
  }
  if (typeof mode !== 'string' || !(ENTITY_MODES as readonly string[]).includes(mode)) {
    throw badRequest('invalid_entity_mode', `entity.mode must be ${ENTITY_MODES.join(' or ')}.`, { mode: typeof mode === 'string' ? mode.slice(0, 64) : null });
  }
  const profile = getProfile(ctx.db, profileId);
  if (!profile) throw badRequest('unknown_profile', `No watch profile ${profileId}; \`svc profile list\` lists them.`, { profile_id: profileId });
  if (profile.kind !== 'person') {
    throw badRequest('invalid_entity_kind', `Watch profile ${profileId} is a ${profile.kind} profile; a routine can follow only a person (sources search by author).`, { profile_id: profileId, kind: profile.kind });
  }
  return { profile_id: profileId, mode: mode as EntityMode };
}

/** The author a fire asks about: the profile's name, and its ORCID iD for the sources that search by it. */
export function entityAuthor(ctx: Context, entity: RoutineEntity | null): { author: string; authorOrcid: string | null } | null {
  if (!entity) return null;
  const profile = getProfile(ctx.db, entity.profile_id);
  return profile ? { author: profile.name, authorOrcid: profile.orcid } : null;
}

/** The profile a routine follows, as the CLI names it (null when it follows none, or the profile is gone). */
export function followedProfile(ctx: Context, entity: RoutineEntity | null): { id: number; name: string; orcid: string | null } | null {
  if (!entity) return null;
  const profile = getProfile(ctx.db, entity.profile_id);
  return profile ? { id: profile.id, name: profile.name, orcid: profile.orcid } : null;
}

/** What each mode does at a fire, in one phrase (CLI views). */
export const MODE_MEANING: Record<EntityMode, string> = {
  new_papers: 'each fire asks the sources for their papers and reports the new ones',
  retractions: 'each fire also checks their papers for retractions, corrections and new versions and reports those notices',
};

/** Sources of the list that can ask about this person at a fire: author search, and an ORCID iD for a source that answers only for one. */
export function sourcesAskingAbout(ids: string[], orcid: string | null): string[] {
  return ids.filter((id) => {
    const entry = findSource(id);
    if (!entry || entry.status !== 'active') return false;
    return entry.capabilities.authorSearch && (!entry.capabilities.orcidOnly || Boolean(orcid));
  });
}
