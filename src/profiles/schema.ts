/**
 * What a watch profile is made of, and the checks on it. kind is person (a
 * researcher, who can be searched for by author) or group (a lab, consortium
 * or collaboration, matched by name only and never followed by a routine).
 * An ORCID is stored bare (0000-0002-1825-0097), accepted with or without the
 * https://orcid.org/ prefix, and refused when its check digit is wrong.
 */
import * as v from 'valibot';
import type { ProfileKind } from '../wire/profiles.js';

export type { ProfileFields, ProfileKind } from '../wire/profiles.js';

export const PROFILE_KINDS = ['person', 'group'] as const satisfies readonly ProfileKind[];

export const MAX_NAME = 200;
export const MAX_LIST = 20;
export const MAX_LIST_ITEM = 200;

/** ISO 7064 mod 11-2 over the first 15 digits: the ORCID check character. */
export function orcidCheckOk(bare: string): boolean {
  const digits = bare.replace(/-/g, '');
  let total = 0;
  for (const ch of digits.slice(0, 15)) total = (total + Number(ch)) * 2;
  const result = (12 - (total % 11)) % 11;
  return digits[15] === (result === 10 ? 'X' : String(result));
}

/** "https://orcid.org/0000-0002-1825-0097" or the bare form → the bare form; undefined when it is not one. */
export function parseOrcid(raw: string): string | undefined {
  const m = /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/.exec(raw.trim());
  if (!m) return undefined;
  const bare = m[1]!.toUpperCase();
  return orcidCheckOk(bare) ? bare : undefined;
}

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `At most ${max} characters`));
const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'The name must not be empty'), v.maxLength(MAX_NAME, `At most ${MAX_NAME} characters`));
const list = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'Entries must not be empty'), v.maxLength(MAX_LIST_ITEM, `At most ${MAX_LIST_ITEM} characters`))),
  v.maxLength(MAX_LIST, `At most ${MAX_LIST} entries`),
);
const orcid = v.pipe(
  v.string(),
  v.check((s) => parseOrcid(s) !== undefined, 'Input should be an ORCID iD with a valid check digit, e.g. 0000-0002-1825-0097'),
  v.transform((s) => parseOrcid(s)!),
);

export const ProfileCreate = v.strictObject({
  kind: v.optional(v.picklist(PROFILE_KINDS), 'person'),
  name: nonEmpty,
  display_name: v.optional(text(MAX_NAME), ''),
  orcid: v.optional(v.nullable(orcid), null),
  orcid_cited: v.optional(v.boolean(), false),
  aliases: v.optional(list, []),
  affiliations: v.optional(list, []),
  field_hints: v.optional(list, []),
});

/** Every field optional; null clears orcid, and resets the others to their defaults. */
export const ProfileUpdate = v.strictObject({
  kind: v.nullish(v.picklist(PROFILE_KINDS)),
  name: v.nullish(nonEmpty),
  display_name: v.nullish(text(MAX_NAME)),
  orcid: v.nullish(orcid),
  orcid_cited: v.nullish(v.boolean()),
  aliases: v.nullish(list),
  affiliations: v.nullish(list),
  field_hints: v.nullish(list),
});
export type ProfileChanges = v.InferOutput<typeof ProfileUpdate>;

export const MAX_IMPORT = 500;
/** `profiles`: a list, or one exported profile (or profile) on its own, read as a list of one (spec: "one exported profile or a list"). */
export const ImportBody = v.strictObject({
  profiles: v.optional(
    v.union([
      v.pipe(v.array(v.unknown()), v.maxLength(MAX_IMPORT, `At most ${MAX_IMPORT} profiles per import`)),
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.transform((one): unknown[] => [one]),
      ),
    ]),
    [],
  ),
});

/** A page of papers: an empty page (a search that found nothing) is answered empty, not refused. */
export const MAX_FOR_DOCUMENTS = 500;
export const ForDocumentsBody = v.strictObject({
  document_ids: v.pipe(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
    v.maxLength(MAX_FOR_DOCUMENTS, `At most ${MAX_FOR_DOCUMENTS} document ids`),
  ),
});
