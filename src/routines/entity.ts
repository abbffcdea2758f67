/**
 * A routine's `entity` (profile_id plus mode new_papers or retractions) makes
 * it follow a watch profile. The spec answers a bad profile id, mode or
 * profile kind with 400, not 422. Watch profiles are not part of this version:
 * until their table exists every entity is refused with 400 and the reason, so
 * no routine claims to follow a profile nobody can check. The watch-profile
 * work replaces the last step with a lookup of the profile and its kind.
 */
import type { Context } from '../context.js';
import { badRequest } from '../errors.js';

export const ENTITY_MODES = ['new_papers', 'retractions'] as const;
export type EntityMode = (typeof ENTITY_MODES)[number];

export interface RoutineEntity {
  profile_id: number;
  mode: EntityMode;
}

const WATCH_PROFILE_TABLE = 'watch_profiles';

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
  const tableExists = ctx.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(WATCH_PROFILE_TABLE) !== undefined;
  if (!tableExists) {
    throw badRequest(
      'watch_profiles_unavailable',
      `No watch profile ${profileId} exists: watch profiles are not part of this version of svc, so a routine cannot follow one yet. Leave entity out or send null.`,
      { profile_id: profileId },
    );
  }
  throw badRequest('unknown_profile', `No watch profile ${profileId} can be followed by a routine in this version of svc.`, { profile_id: profileId });
}
