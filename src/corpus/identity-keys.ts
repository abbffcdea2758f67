/**
 * Identity keys of a record, in the order the corpus matches them: DOI, arXiv
 * id, PMID, PMCID, then normalized title + year + first author. The fallback
 * key is only used when it is specific enough to trust.
 */
import { firstAuthorKey, titleKey } from '../sources/normalize.js';
import type { NormalizedRecord } from '../sources/types.js';

export interface IdentityKeys {
  doi?: string;
  arxiv?: string;
  pmid?: string;
  pmcid?: string;
  /** Normalized title and first author's family name, as stored on the document (computed once per record). */
  title: string;
  firstAuthor: string;
  /** title key, year, first author family key; absent when too weak to match on. */
  fallback?: { titleKey: string; year: number; firstAuthor: string };
}

/** Short titles ("Editorial", "Reply") with the same year and author are not the same work often enough. */
const MIN_TITLE_KEY_LENGTH = 16;

export function identityKeys(record: NormalizedRecord): IdentityKeys {
  const title = titleKey(record.title);
  const author = firstAuthorKey(record.authors);
  const keys: IdentityKeys = { title, firstAuthor: author };
  if (record.doi) keys.doi = record.doi;
  if (record.ids.arxiv) keys.arxiv = record.ids.arxiv;
  if (record.ids.pmid) keys.pmid = record.ids.pmid;
  if (record.ids.pmcid) keys.pmcid = record.ids.pmcid;
  const year = record.publicationDate ? Number(record.publicationDate.slice(0, 4)) : undefined;
  if (title.length >= MIN_TITLE_KEY_LENGTH && year && author) keys.fallback = { titleKey: title, year, firstAuthor: author };
  return keys;
}
