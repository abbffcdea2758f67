/**
 * Every domain refusal of Evidence projects, in one place (man/svc-evidence.1
 * lists them). Library refusals (vault, file, verified reads) keep their own
 * reasons from src/library/reasons.ts. Messages carry no filesystem path.
 */
import { SvcError } from '../errors.js';

const e = (status: number, reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(status, reason, message, extra);

// Identity and revisions
export const projectNotFound = () => e(404, 'project_not_found', 'No evidence project with this project_id in this vault.');
/** The command line names a project by its number or name too (resolveProjectId). */
export const projectNotNamed = (ref: string) =>
  e(404, 'project_not_found', `No evidence project ${JSON.stringify(ref.length > 60 ? `${ref.slice(0, 59)}…` : ref)} in this vault; \`svc evidence list\` shows each one's ID, PROJECT_ID and NAME.`);
export const projectNameShared = (name: string, ids: number[]) =>
  e(400, 'project_name_shared', `${ids.length} evidence projects are called ${JSON.stringify(name)} (IDs ${ids.join(', ')}); name one by its ID.`, { ids });
export const noteNotFound = () => e(404, 'note_not_found', 'No note with this note_id in this project.');
export const revisionConflict = (revision: number) =>
  e(409, 'revision_conflict', 'expected_revision is not the current project revision; reload the project and try again.', { revision });
export const noteRevisionConflict = (revision: number) =>
  e(409, 'note_revision_conflict', 'expected_note_revision is not the current note revision; reload the note and try again.', { note_revision: revision });
export const notMember = () => e(409, 'not_a_member', 'This file version is not a member of the project; add it to the project first.');

// Input
export const nameInvalid = (why: string) => e(422, 'name_invalid', `The project name ${why}.`);
export const bodyInvalid = (why: string) => e(422, 'body_invalid', `The note body ${why}.`);
/** Its own reason: the one body refusal a person fixes by typing something, not by shortening or cleaning the text. */
export const bodyEmpty = () => e(422, 'body_empty', 'A plain note needs text: give a body that is not empty or only whitespace (a passage note may have an empty body).');
export const kindAnchorMismatch = () => e(422, 'anchor_invalid', 'A plain note has anchor null; a passage note has an anchor.');
export const anchorInvalid = (why: string) => e(422, 'anchor_invalid', `The passage anchor ${why}.`);
export const pageOutOfRange = (pageCount: number) =>
  e(422, 'page_out_of_range', pageCount === 1 ? 'The file has 1 page; ask for page 1.' : `The file has ${pageCount} pages; ask for a page from 1 to ${pageCount}.`, { page_count: pageCount });
export const representationUnsupported = () => e(422, 'representation_unsupported', 'representation=pdf reads PDF files only; text files are read as representation=text.');
export const selectionInvalid = (why: string) => e(422, 'selection_invalid', `The bundle selection ${why}.`);

// Passage anchors against the current bytes
export const contractMismatch = (contract: string) =>
  e(409, 'contract_mismatch', 'The anchor names another extraction contract than the one this file is read with now.', { extraction_contract: contract });
export const pageChanged = () => e(409, 'page_hash_mismatch', 'page_sha256 is not the SHA-256 of the page text read now; read the page again.');
export const quoteMismatch = () => e(409, 'quote_mismatch', 'The quote is not the text between start and end on this page.');
export const pageUnreadable = (status: string, reason: string | null) =>
  e(
    409,
    'page_unreadable',
    status === 'no_text'
      ? 'The page has no extractable text (no_text: an image-only or scanned page?), so no passage can be anchored on it; a plain note (no anchor) can be.'
      : `The page could not be read (${status}${reason ? `: ${reason}` : ''}); no passage can be anchored on it.`,
    { page_status: status, page_reason: reason },
  );
export const cancelled = () => e(499, 'cancelled', 'The request was cancelled; nothing was saved.');

// Limits
export const tooManyProjects = (limit: number) => e(413, 'project_limit', `A vault may hold at most ${limit} evidence projects.`, { limit });
export const tooManyMembers = (limit: number) => e(413, 'member_limit', `A project may hold at most ${limit} file versions.`, { limit });
export const tooManyNotes = (limit: number) => e(413, 'note_limit', `A project may hold at most ${limit} notes.`, { limit });
export const pageLimit = (reason: string | null) => e(413, 'page_limit_exceeded', 'The page exceeds a reader limit; no passage can be anchored on it.', { page_reason: reason });
export const bundleFileLimit = (limit: number) => e(413, 'bundle_limit', `A bundle may hold at most ${limit} file versions; nothing was produced.`, { part: 'files', limit });
export const bundleTooLarge = (what: string, limit: number) => e(413, 'bundle_limit', `The bundle's ${what} would exceed ${limit} bytes; nothing was produced.`, { part: what, limit_bytes: limit });
