/**
 * The JSON of reading links as the routes send them (spec 1, "Similarity,
 * embeddings, links, explorer, reading queue"): what else looks like the same
 * work, or a version of the same research, for one paper or a page of them,
 * and the preview of a collapse. Declared once here, for the service and the
 * window alike; imports nothing but wire files.
 */

/** Another paper linked to the one asked about. */
export interface LinkView {
  document_id: number;
  /** same_work or related_version. */
  kind: string;
  method: string;
  score: number;
  /** What the link was judged on, as its method recorded it. */
  evidence: Record<string, unknown>;
  /** The evidence as one sentence for people ("DOIs 10.1/a and 10.1/b; titles equal; 2 of 2 authors shared; same year"), as the CLI and the window say it. */
  evidence_text: string;
  title: string | null;
  year: number | null;
  doi: string | null;
  arxiv_id: string | null;
  sources: string[];
  created_at_utc: string;
}

/** GET /api/documents/{document_id}/links; an empty list says why (reason and message), else both are null. */
export interface LinksAnswer {
  document_id: number;
  links: LinkView[];
  reason: string | null;
  message: string | null;
}

/** POST /api/links/for-documents: every id asked is a key. */
export interface LinksForDocuments {
  links: Record<string, LinkView[]>;
  linked_count: number;
  /** Ids not in the corpus (not papers with no links). */
  unknown_ids: number[];
}

/** Papers a collapse would fold into the one it keeps. */
export interface CollapseGroup {
  keep: number;
  fold: number[];
  methods: string[];
}

/** POST /api/links/collapse-preview: nothing is folded, ever. */
export interface CollapsePreview {
  groups: CollapseGroup[];
  fold_ids: number[];
  kept_ids: number[];
  unknown_ids: number[];
  folded_nothing: true;
  note: string;
}
