/**
 * Every domain refusal of selected-evidence answers in one place. Page and
 * membership refusals reuse the Evidence vocabulary (src/evidence/reasons.ts);
 * messages carry no filesystem path.
 */
import { SvcError } from '../errors.js';

const e = (status: number, reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(status, reason, message, extra);

// Input
export const selectionInvalid = (why: string, loc: (string | number)[]) => e(422, 'selection_invalid', `The selection ${why}.`, { loc });
export const instructionInvalid = (why: string) => e(422, 'instruction_invalid', `The instruction ${why}.`, { loc: ['body', 'instruction'] });
export const choicesInvalid = (problems: string[]) => e(422, 'invalid_choices', `Invalid choices: ${problems.join('; ')}.`, { problems });
export const noteNotSelectable = (noteId: number, fileId: string) =>
  e(409, 'note_not_selectable', `Note ${noteId} is on file ${fileId}, which is not selected; select a page of that file version too, or leave the note out.`, { note_id: noteId, file_id: fileId });
export const noteEmpty = (noteId: number) =>
  e(422, 'note_empty', `Note ${noteId} has no text to send (a passage note with an empty body); give it a body first, or leave it out.`, { note_id: noteId });

// Selection against the files
export const selectionUnreadable = (fileId: string, filename: string, page: number, status: string, reason: string | null) =>
  e(
    409,
    'page_unreadable',
    status === 'no_text'
      ? `Page ${page} of ${filename} has no extractable text (no_text: an image-only or scanned page?), so nothing on it can be sent or cited; nothing was previewed. Leave that page out of the selection.`
      : `Page ${page} of ${filename} could not be read (${status}${reason ? `: ${reason}` : ''}); nothing was previewed. Leave that page out of the selection.`,
    { file_id: fileId, page, page_status: status, page_reason: reason },
  );
export const selectionPageLimit = (fileId: string, page: number, reason: string | null) =>
  e(413, 'page_limit_exceeded', `Page ${page} of a selected file exceeds a reader limit; nothing was previewed.`, { file_id: fileId, page, page_reason: reason });
export const passageOutOfRange = (page: number, length: number, loc: (string | number)[]) =>
  e(422, 'passage_out_of_range', `The passage is not inside page ${page} (its text has ${length} codepoints; end is exclusive).`, { page, codepoint_length: length, loc });

// Limits
export const selectionLimit = (what: string, limit: number) => e(413, 'selection_limit', `The selection has more ${what} than the limit of ${limit}.`, { part: what, limit });
export const textLimit = (what: string, limit: number, unit: string) => e(413, 'text_limit', `The ${what} exceeds ${limit} ${unit}.`, { part: what, limit, unit });
export const answerLimit = (limit: number) => e(413, 'answer_limit', `A project may hold at most ${limit} answers; nothing was deleted.`, { limit });

// Previews
export const previewBusy = () => e(409, 'preview_busy', 'Another preview is being assembled; try again when it is done.');
export const previewLimit = (limit: number) => e(413, 'preview_limit', `At most ${limit} previews are live at once; send or let one expire first.`, { limit });
export const previewMemory = (limit: number) => e(413, 'preview_memory', `Live previews may hold at most ${limit} bytes; send or let one expire first.`, { limit_bytes: limit });
export const assemblyTimeout = (ms: number) => e(413, 'preview_timeout', `The preview was not assembled within ${ms} ms; nothing was kept.`, { limit_ms: ms });
export const previewNotFound = () =>
  e(404, 'preview_not_found', 'No live preview with this preview_id: it expired, was lost on a restart or never existed; make a new preview.');

// Consent and send
export const notConfirmed = () => e(422, 'not_confirmed', 'Sending requires confirmed: true after reading the preview.', { loc: ['body', 'confirmed'] });
export const requestHashMismatch = () => e(409, 'request_hash_mismatch', 'request_sha256 is not the hash of this preview; read the preview again.');
export const requestChanged = () => e(409, 'request_changed', 'The selected facts changed since the preview (files, pages, notes, revision or settings); make a new preview.');
export const runtimeMismatch = (actual: string) => e(409, 'runtime_mismatch', 'expected_runtime_id is not the runtime of this server.', { actual_runtime_id: actual });
export const routeChanged = () => e(409, 'route_changed', 'The chosen connection now goes elsewhere (its endpoint or agent CLI changed) since the preview; make a new preview.');
export const connectionUnavailable = (why: string) => e(409, 'connection_unavailable', `The chosen connection cannot run here: ${why}`);
export const cleanupPending = () => e(409, 'cleanup_pending', 'A cancelled answer is still cleaning up; try again shortly.');

// Answers
export const answerNotFound = () => e(404, 'answer_not_found', 'No answer with this answer_id in this project.');
export const answerNotLive = (state: string) => e(409, 'answer_not_live', `The answer is ${state}; only an admitted or running answer can be cancelled or watched live.`, { state });
export const notOwner = () => e(409, 'not_owner', 'This answer is run by another runtime of svc; it cannot be cancelled or watched from here.');
export const subscriberTaken = () => e(409, 'subscriber_taken', 'The answer already has its one subscriber.');
export const attachExpired = () => e(409, 'attach_expired', 'The answer was not watched within the attach window and has been cancelled.');
export const rowUnreadable = () => e(500, 'answer_unreadable', 'The saved answer cannot be read; it is not repaired.');
