/** What the reader says about a page that has no text to show, and about a note it cannot highlight. */
import type { NotHighlighted, PageStatus } from '../api/reader.js';

/** Spec 2's page statuses, in words; the service's own message follows them on the page. */
export const PAGE_STATUS_WORDS: Record<PageStatus, string> = {
  extracted: 'Text extracted.',
  no_text: 'svc found no text on this page — a scanned or image-only page, perhaps. No text is not evidence of no content: read the drawn page.',
  unsupported: 'svc does not read this file in the app (it is encrypted, or uses something the reader does not support).',
  malformed: 'svc could not parse this page: the file is damaged or not valid.',
  limit_exceeded: 'This page is over one of the reader’s limits, so svc did not extract its text.',
  timeout: 'Extracting this page took longer than the reader allows (20 seconds), so svc stopped.',
  unavailable: 'The file’s retained copy could not be read now: it is missing or changed, or the parser stopped.',
};

export const NOT_HIGHLIGHTED_WORDS: Record<NotHighlighted['reason'], string> = {
  contract_mismatch: 'saved under another extraction contract, so its offsets do not point into this text',
  page_hash_mismatch: 'saved on other text of this page (its page hash differs), so it no longer matches',
  page_unreadable: 'this page has no readable text now',
};
