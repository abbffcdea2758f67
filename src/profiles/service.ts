/**
 * Watch profiles: create, read, list, update, delete. A profile with no
 * identifier can only match by name, and every answer about it says so
 * (basis_warning). Creating or changing a profile matches it against the
 * whole corpus at once, so its matches are never stale.
 */
import type { Context } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { parseWith } from '../util/validate.js';
import { byBasis } from './bases.js';
import { matchNewDocuments, profileNameKeys } from './match.js';
import * as repo from './repo.js';
import type { ProfileDeleted, ProfileDetail, ProfileIdentity, ProfileList, ProfileView } from '../wire/profiles.js';
import { ProfileCreate, ProfileUpdate, type ProfileFields, type ProfileKind } from './schema.js';

export const BASIS_WARNING =
  'This profile has no identifier (no ORCID iD): it can match only by name, and a name match is a string match, not an identity claim. Add an ORCID iD to match by identity.';

export function fieldsOf(row: repo.ProfileRow): ProfileFields {
  return {
    kind: row.kind,
    name: row.name,
    display_name: row.display_name,
    orcid: row.orcid,
    orcid_cited: row.orcid_cited === 1,
    aliases: JSON.parse(row.aliases_json),
    affiliations: JSON.parse(row.affiliations_json),
    field_hints: JSON.parse(row.field_hints_json),
  };
}

/** The identifier schemes a profile carries (only ORCID today), and the warning when there is none. */
export function identityOf(f: Pick<ProfileFields, 'orcid'>): ProfileIdentity {
  return f.orcid ? { identifier_schemes: ['orcid'] } : { identifier_schemes: [], basis_warning: BASIS_WARNING };
}

export function profileView(ctx: Context, row: repo.ProfileRow): ProfileView {
  const fields = fieldsOf(row);
  return {
    id: row.id,
    ...fields,
    ...identityOf(fields),
    match_count: repo.countMatches(ctx.db, row.id),
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
  };
}

export function requireProfile(ctx: Context, id: number): repo.ProfileRow {
  const row = repo.getProfile(ctx.db, id);
  if (!row) throw notFound('profile_not_found', `No watch profile ${id}; GET /api/profiles (or \`svc profile list\`) lists them.`, { profile_id: id });
  return row;
}

function refuseTakenOrcid(ctx: Context, orcid: string | null, selfId?: number): void {
  if (!orcid) return;
  const other = repo.profileByOrcid(ctx.db, orcid);
  if (other && other.id !== selfId) throw conflict('profile_exists', `Watch profile ${other.id} ("${other.name}") already follows ORCID ${orcid}.`, { profile_id: other.id });
}

/** Store checked fields (no matching yet): the one write path of create and import. */
export function insertChecked(ctx: Context, fields: ProfileFields): number {
  refuseTakenOrcid(ctx, fields.orcid);
  return ctx.db.transaction(() => {
    const id = repo.insertProfile(ctx.db, fields, ctx.nowIso());
    repo.replaceNameKeys(ctx.db, id, profileNameKeys(fields.name, fields.aliases));
    return id;
  })();
}

/** @example createProfile(ctx, { name: 'Josiah Carberry', orcid: '0000-0002-1825-0097' }) */
export function createProfile(ctx: Context, body: unknown): ProfileView {
  const fields = parseWith(ProfileCreate, body ?? {}, ['body']);
  const id = insertChecked(ctx, fields);
  matchNewDocuments(ctx);
  return profileView(ctx, requireProfile(ctx, id));
}

export function listProfiles(ctx: Context, kind?: ProfileKind): ProfileList {
  const profiles = repo.listProfiles(ctx.db, kind).map((row) => profileView(ctx, row));
  return { profiles, total: profiles.length };
}

export function readProfile(ctx: Context, id: number): ProfileDetail {
  const row = requireProfile(ctx, id);
  matchNewDocuments(ctx);
  return { ...profileView(ctx, requireProfile(ctx, row.id)), by_basis: byBasis(repo.countByBasis(ctx.db, id)) };
}

/** Absent or null fields keep their value, except orcid, where null removes the identifier. */
export function updateProfile(ctx: Context, id: number, body: unknown): ProfileView {
  const row = requireProfile(ctx, id);
  const changes = parseWith(ProfileUpdate, body ?? {}, ['body']);
  const before = fieldsOf(row);
  const next: ProfileFields = {
    kind: changes.kind ?? before.kind,
    name: changes.name ?? before.name,
    display_name: changes.display_name ?? before.display_name,
    orcid: changes.orcid === null ? null : (changes.orcid ?? before.orcid),
    orcid_cited: changes.orcid_cited ?? before.orcid_cited,
    aliases: changes.aliases ?? before.aliases,
    affiliations: changes.affiliations ?? before.affiliations,
    field_hints: changes.field_hints ?? before.field_hints,
  };
  refuseTakenOrcid(ctx, next.orcid, id);
  ctx.db.transaction(() => {
    repo.updateProfile(ctx.db, id, next, ctx.nowIso());
    repo.replaceNameKeys(ctx.db, id, profileNameKeys(next.name, next.aliases));
  })();
  matchNewDocuments(ctx);
  return profileView(ctx, requireProfile(ctx, id));
}

/** Removes the profile and its matches; no document is touched. Routines that follow it are named. */
export function deleteProfile(ctx: Context, id: number): ProfileDeleted {
  requireProfile(ctx, id);
  const following = repo.routinesFollowing(ctx.db, id);
  if (following.length) {
    throw conflict('profile_followed', `Routine${following.length > 1 ? 's' : ''} ${following.join(', ')} follow${following.length > 1 ? '' : 's'} this profile: take the profile off ${following.length > 1 ? 'them' : 'it'} first (\`svc routine edit ${following[0]} --no-follow\`, or PUT /api/routines/${following[0]} with "entity": null).`, { routine_ids: following });
  }
  const matches = ctx.db.transaction(() => repo.deleteProfile(ctx.db, id))();
  return { id, deleted: true, matches_removed: matches };
}
