/**
 * What the parent and the PDF child say to each other over IPC. The parent
 * names the document by the SHA-256 its bytes were verified against; the child
 * answers `need_bytes` when it holds no document of that hash, and the parent
 * asks again with the bytes. The child answers one JSON text per request; the
 * parent bounds its size before parsing it.
 */
export const PDFJS_VERSION = '5.6.205';

/**
 * The PDF extraction contract: the real parser and its version, then how page
 * text is assembled (see src/evidence/pdf-child.ts): text items in content
 * order, LF after an item that ends a line, CRLF and CR made LF, NUL and
 * unpaired surrogates made U+FFFD. Nothing else is normalized.
 */
export const PDF_CONTRACT = `pdfjs-dist-${PDFJS_VERSION}/plain-lf/v1`;

export interface ChildLimits {
  pages: number;
  codepoints: number;
  forms: number;
  /** The page tree: nodes visited (every Pages and Page dictionary) and levels, the root at level 1. */
  treeNodes: number;
  treeDepth: number;
}

export interface ChildRequest {
  id: number;
  /** The SHA-256 the bytes were verified against: the key of the child's parsed documents. */
  sha256: string;
  /** Sent only after the child answered `need_bytes` for this request. */
  data?: Uint8Array;
  page: number;
  limits: ChildLimits;
}

export type ChildStatus = 'extracted' | 'no_text' | 'unsupported' | 'malformed' | 'limit_exceeded' | 'out_of_range';

export interface ChildAnswer {
  id: number;
  status: ChildStatus;
  reason: string | null;
  message: string | null;
  page_count: number | null;
  /** Whether the requested page itself was parsed. */
  examined: boolean;
  text: string | null;
  /** Whether the document was already parsed in this child (its bytes were not sent again). */
  reused: boolean;
}

export type ChildMessage = { kind: 'ready'; version: string } | { kind: 'need_bytes'; id: number } | { kind: 'answer'; id: number; json: string };
