/**
 * Matching documents against watch profiles. Incremental: each profile keeps a
 * watermark (the highest document id it has been matched against), and a pass
 * reads only documents above the lowest watermark, in slices, with every
 * profile's name keys in one in-memory index. A paper gets one match per
 * profile: the strongest basis found, with the author and the evidence.
 *
 * An author whose record carries a different ORCID than the profile's is a
 * different person, whatever the name says: such an author never matches by name.
 */
import type { Database } from 'better-sqlite3';
import type { Context } from '../context.js';
import type { Author } from '../sources/types.js';
import { strength, type Basis } from './bases.js';
import { givenNamesAgree, nameKey, nameParts, sharedAffiliation, wholeNamesAgree, type NameParts } from '../corpus/names.js';
import * as repo from './repo.js';

const SLICE = 5_000;
const ORCID_PATTERN = /\d{4}-\d{4}-\d{4}-\d{3}[\dX]/g;

interface IndexedProfile {
  row: repo.ProfileRow;
  affiliations: string[];
  fieldHints: string[];
}

interface ProfileIndex {
  profiles: Map<number, IndexedProfile>;
  byOrcid: Map<string, IndexedProfile>;
  byKey: Map<string, { profile: IndexedProfile; source: 'name' | 'alias'; variant: string; parts: NameParts }[]>;
}

function buildIndex(db: Database, rows: repo.ProfileRow[]): ProfileIndex {
  const index: ProfileIndex = { profiles: new Map(), byOrcid: new Map(), byKey: new Map() };
  for (const row of rows) {
    const p = { row, affiliations: JSON.parse(row.affiliations_json) as string[], fieldHints: JSON.parse(row.field_hints_json) as string[] };
    index.profiles.set(row.id, p);
    if (row.orcid) index.byOrcid.set(row.orcid, p);
  }
  for (const k of repo.allNameKeys(db)) {
    const profile = index.profiles.get(k.profile_id);
    if (!profile) continue;
    const list = index.byKey.get(k.name_key) ?? [];
    list.push({ profile, source: k.source, variant: k.variant, parts: nameParts(k.variant) });
    index.byKey.set(k.name_key, list);
  }
  return index;
}

/** The name keys a profile is indexed under: its name and each alias. */
export function profileNameKeys(name: string, aliases: string[]): Omit<repo.NameKeyRow, 'profile_id'>[] {
  const keys: Omit<repo.NameKeyRow, 'profile_id'>[] = [{ name_key: nameKey(nameParts(name)), source: 'name', variant: name }];
  for (const alias of aliases) keys.push({ name_key: nameKey(nameParts(alias)), source: 'alias', variant: alias });
  return keys;
}

interface Found {
  basis: Basis;
  matchedAuthor: string | null;
  evidence: string;
}

function keep(found: Map<number, Found>, profileId: number, next: Found): void {
  const before = found.get(profileId);
  if (!before || strength(next.basis) < strength(before.basis)) found.set(profileId, next);
}

function hintNote(p: IndexedProfile, doc: repo.CandidateDocument): string {
  if (!p.fieldHints.length) return '';
  const haystack = `${doc.title} ${doc.categories_json}`.toLowerCase();
  const hit = p.fieldHints.find((h) => haystack.includes(h.toLowerCase()));
  return hit ? `; field hint "${hit}" appears in the title or categories` : '; none of the field hints appears in the title or categories';
}

/** Every profile (among `eligible`) this document matches, strongest basis each. */
function matchDocument(db: Database, index: ProfileIndex, doc: repo.CandidateDocument, eligible: (id: number) => boolean): Map<number, Found> {
  const found = new Map<number, Found>();
  const authors = JSON.parse(doc.authors_json) as Author[];
  for (const author of authors) {
    if (author.orcid) {
      const p = index.byOrcid.get(author.orcid);
      if (p && eligible(p.row.id)) keep(found, p.row.id, { basis: 'orcid', matchedAuthor: author.name, evidence: `The author record "${author.name}" carries ORCID ${author.orcid}.` });
    }
    const parts = nameParts(author.name, author.given, author.family);
    for (const candidate of index.byKey.get(nameKey(parts)) ?? []) {
      const p = candidate.profile;
      if (!eligible(p.row.id)) continue;
      // A person's given names agree by initial or first name; a group's name must agree whole.
      if (p.row.kind === 'group' ? !wholeNamesAgree(parts, candidate.parts) : !givenNamesAgree(parts.given, candidate.parts.given)) continue;
      if (author.orcid && p.row.orcid && author.orcid !== p.row.orcid) continue; // a namesake with another identifier
      const affiliation = sharedAffiliation(p.affiliations, author.affiliations ?? []);
      const said = `"${author.name}" agrees with the profile's ${candidate.source === 'alias' ? 'alias' : 'name'} "${candidate.variant}"`;
      if (candidate.source === 'alias') keep(found, p.row.id, { basis: 'alias', matchedAuthor: author.name, evidence: `${said}${affiliation ? ` and lists the affiliation "${affiliation}"` : ''}${hintNote(p, doc)}.` });
      else if (affiliation) keep(found, p.row.id, { basis: 'name_affiliation', matchedAuthor: author.name, evidence: `${said} and lists the affiliation "${affiliation}"${hintNote(p, doc)}.` });
      else keep(found, p.row.id, { basis: 'name_only', matchedAuthor: author.name, evidence: `${said}; no identifier or affiliation confirms it${hintNote(p, doc)}.` });
    }
  }
  // Other sources' records of the same paper may carry identifiers the merged author list lacks
  // (arXiv has no ORCIDs, Crossref has). Read them only when a profile has an ORCID to look for.
  if (index.byOrcid.size) {
    for (const { source, record_json } of repo.sourceRecordTexts(db, doc.id)) {
      const cited = [...new Set(record_json.match(ORCID_PATTERN) ?? [])].filter((o) => index.byOrcid.has(o) && eligible(index.byOrcid.get(o)!.row.id));
      if (!cited.length) continue;
      const recordAuthors = ((JSON.parse(record_json) as { authors?: Author[] }).authors ?? []);
      for (const orcid of cited) {
        const p = index.byOrcid.get(orcid)!;
        const onAuthor = recordAuthors.find((a) => a.orcid === orcid);
        if (onAuthor) keep(found, p.row.id, { basis: 'orcid', matchedAuthor: onAuthor.name, evidence: `The ${source} author record "${onAuthor.name}" carries ORCID ${orcid}.` });
        else if (p.row.orcid_cited) keep(found, p.row.id, { basis: 'orcid_cited', matchedAuthor: null, evidence: `The ${source} record of this paper cites ORCID ${orcid} outside any author record.` });
      }
    }
  }
  return found;
}

function store(db: Database, docId: number, found: Map<number, Found>, now: string): number {
  for (const [profileId, f] of found) repo.upsertMatch(db, { profile_id: profileId, document_id: docId, basis: f.basis, matched_author: f.matchedAuthor, evidence: f.evidence, matched_at_utc: now });
  return found.size;
}

/**
 * Bring every profile up to date with the corpus: match the documents above
 * each profile's watermark. One transaction per slice.
 * @example matchNewDocuments(ctx) // { documents: 120, matches: 3 }
 */
export function matchNewDocuments(ctx: Context): { documents: number; matches: number } {
  const db = ctx.db;
  const rows = repo.listProfiles(db);
  if (!rows.length) return { documents: 0, matches: 0 };
  const index = buildIndex(db, rows);
  const top = repo.maxDocumentId(db);
  let cursor = Math.min(...rows.map((r) => r.scanned_through_document_id));
  const totals = { documents: 0, matches: 0 };
  const now = ctx.nowIso();
  while (cursor < top) {
    const slice = repo.documentsByRange(db, cursor, SLICE);
    if (!slice.length) break;
    db.transaction(() => {
      for (const doc of slice) {
        const found = matchDocument(db, index, doc, (id) => index.profiles.get(id)!.row.scanned_through_document_id < doc.id);
        totals.matches += store(db, doc.id, found, now);
      }
      cursor = slice[slice.length - 1]!.id;
      repo.advanceWatermarks(db, rows.map((r) => r.id), cursor);
    })();
    totals.documents += slice.length;
  }
  db.transaction(() => repo.advanceWatermarks(db, rows.map((r) => r.id), top))();
  return totals;
}

/**
 * Match these documents against every profile now (whatever the watermarks say): their matches
 * become what they match today. A document's records change as sources see it again (a Crossref
 * record may bring the ORCID an arXiv one lacked, or another ORCID that makes a name match a
 * namesake), so a basis is upgraded and a match no longer supported is dropped.
 */
export function matchDocuments(ctx: Context, ids: number[]): void {
  const rows = repo.listProfiles(ctx.db);
  if (!rows.length) return;
  const index = buildIndex(ctx.db, rows);
  const now = ctx.nowIso();
  ctx.db.transaction(() => {
    for (const doc of repo.documentsByIds(ctx.db, ids)) {
      const found = matchDocument(ctx.db, index, doc, () => true);
      repo.dropStaleMatches(ctx.db, doc.id, [...found.keys()]);
      store(ctx.db, doc.id, found, now);
    }
  })();
}

/** After a run: match the documents it added, and match again those it saw that were already stored. */
export function matchRunDocuments(ctx: Context, executionId: number): void {
  matchNewDocuments(ctx);
  const known = repo.knownDocumentsOfRun(ctx.db, executionId);
  for (let i = 0; i < known.length; i += SLICE) matchDocuments(ctx, known.slice(i, i + SLICE));
}
