/**
 * What the parent and the PDF child say to each other over IPC. The child
 * answers one JSON text per request; the parent bounds its size before
 * parsing it.
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
  data: Uint8Array;
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
}

export type ChildMessage = { kind: 'ready'; version: string } | { kind: 'answer'; id: number; json: string };
