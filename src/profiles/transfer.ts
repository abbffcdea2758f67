/**
 * Export and import. An exported profile is an envelope {format, version,
 * profile} holding the writable fields only (no id, no matches, no
 * timestamps), so it can be shared. Import takes a list of exported envelopes
 * or bare field objects; every item is checked before any is stored, and a
 * profile whose ORCID is already followed is reported as skipped, not duplicated.
 */
import type { Context } from '../context.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { parseWith } from '../util/validate.js';
import { matchNewDocuments } from './match.js';
import * as repo from './repo.js';
import { ProfileCreate, type ProfileFields } from './schema.js';
import { fieldsOf, insertChecked, profileView, requireProfile } from './service.js';
import type { ImportAnswer, ImportSkip } from '../wire/profiles.js';

export const EXPORT_FORMAT = 'svc-watch-profile';
export const EXPORT_VERSION = 1;

export function exportProfile(ctx: Context, id: number) {
  const row = requireProfile(ctx, id);
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at_utc: ctx.nowIso(), profile: fieldsOf(row) };
}

function unwrap(item: unknown): unknown {
  if (item && typeof item === 'object' && !Array.isArray(item) && (item as Record<string, unknown>).format === EXPORT_FORMAT) return (item as Record<string, unknown>).profile;
  return item;
}

export function importProfiles(ctx: Context, items: unknown[]): ImportAnswer {
  const issues: ValidationIssue[] = [];
  const checked: ProfileFields[] = [];
  items.forEach((item, i) => {
    const envelope = item as Record<string, unknown> | null;
    if (envelope && typeof envelope === 'object' && envelope.format === EXPORT_FORMAT && envelope.version !== EXPORT_VERSION) {
      issues.push({ loc: ['body', 'profiles', i, 'version'], msg: `Only version ${EXPORT_VERSION} exports can be imported`, type: 'value_error', input: envelope.version, ctx: {} });
      return;
    }
    try {
      checked.push(parseWith(ProfileCreate, unwrap(item), ['body', 'profiles', i]));
    } catch (err) {
      if (err instanceof ValidationError) issues.push(...err.issues);
      else throw err;
    }
  });
  if (issues.length) throw new ValidationError(issues);
  const created: number[] = [];
  const skipped: ImportSkip[] = [];
  ctx.db.transaction(() => {
    checked.forEach((fields, index) => {
      const existing = fields.orcid ? repo.profileByOrcid(ctx.db, fields.orcid) : undefined;
      if (existing) skipped.push({ index, reason: `ORCID ${fields.orcid} is already followed by profile ${existing.id}`, profile_id: existing.id });
      else created.push(insertChecked(ctx, fields));
    });
  })();
  matchNewDocuments(ctx);
  return { imported: created.length, skipped, profiles: created.map((id) => profileView(ctx, requireProfile(ctx, id))) };
}
