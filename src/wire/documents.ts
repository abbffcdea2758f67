/**
 * The JSON of a paper as the corpus stores it, the whole record the sources
 * gave (spec 1, "Corpus"): what a run's documents page lists. Declared once
 * here, for the service and the window alike; imports nothing but wire files.
 */
import type { AuthorDetail } from './papers.js';

/** How a record points at another version or notice of itself: the kind says which way. */
export type RelationKind =
  | 'retracted_by' // this record is retracted; the other is the notice
  | 'retraction_of' // this record is a retraction notice of the other
  | 'corrected_by'
  | 'correction_of'
  | 'has_preprint'
  | 'preprint_of' // this record is a preprint; the other is the published version
  | 'has_version'
  | 'version_of';

/** Another record this one names, by whichever identifier the source gave. */
export interface Relation {
  kind: RelationKind;
  doi?: string;
  arxiv?: string;
  url?: string;
  label?: string;
  date?: string;
}

/** One paper of the corpus with every field it has stored. */
export interface StoredDocument {
  id: number;
  title: string;
  authors: AuthorDetail[];
  abstract: string | null;
  publication_date: string | null;
  /** How much of publication_date is known: day, month or year. */
  date_precision: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  pmcid: string | null;
  /** Native identifiers besides the DOI, keyed by scheme. */
  ids: Record<string, string>;
  /** The landing page a source gave, else the address of the DOI, the arXiv id or the PMID. */
  url: string | null;
  pdf_url: string | null;
  categories: string[];
  license: string | null;
  /** null when no source said. */
  open_access: boolean | null;
  type: string | null;
  is_retracted: boolean;
  relations: Relation[];
  first_seen_at_utc: string;
}
