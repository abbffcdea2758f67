/**
 * Every domain refusal of the Library, in one place (the spec leaves the
 * detail.reason values open; man/svc-library.1 lists these). Messages say what
 * to do and never carry an absolute path: vault paths are given relative to
 * the vault folder.
 */
import { SvcError } from '../errors.js';

const e = (status: number, reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(status, reason, message, extra);

// The vault
export const vaultNotConfigured = () => e(404, 'vault_not_configured', 'No Library vault is configured; create one with `svc library init <parent>` (POST /api/library/vault).');
export const vaultMismatch = (vaultId: string) => e(409, 'vault_mismatch', 'expected_vault_id does not name the configured vault; refresh the Library status.', { vault_id: vaultId });
export const vaultExists = (vaultId: string) => e(409, 'vault_exists', 'A vault is already configured and its root cannot be switched; keep using it (the Library status names it).', { vault_id: vaultId });
export const parentNotAbsolute = () => e(422, 'parent_not_absolute', 'parent_directory must be an absolute path.');
export const parentMissing = () => e(422, 'parent_missing', 'parent_directory does not exist; choose an existing folder.');
export const parentNotDirectory = () => e(422, 'parent_not_directory', 'parent_directory is not a folder; choose a folder.');
export const parentNotWritable = () => e(422, 'parent_not_writable', 'svc may not create a folder inside parent_directory; choose a folder you may write to.');
export const vaultFolderExists = () => e(409, 'vault_folder_exists', 'The new vault folder already exists; no existing folder is adopted. Try again.');
export const vaultUnavailable = () =>
  e(409, 'vault_unavailable', 'The vault folder is missing or not reachable (an unmounted drive?). Put it back where it was, or restore a backup that holds it (POST /api/restore with a vault_parent; it applies at the next start). A configured vault cannot switch to another folder.');
export const markerInvalid = () => e(409, 'vault_marker_invalid', 'vault.json in the vault folder is missing or does not name this vault; the folder is not the configured vault.');

// Names and content
export const nameInvalid = (why: string) => e(422, 'name_invalid', `The file name is not a display basename: ${why}.`);
export const mediaUnsupported = () => e(422, 'media_unsupported', 'Only .pdf, .txt and .md files can be imported; convert the file to one of these (or give a text file its .txt or .md name).');
export const emptyFile = () => e(422, 'empty_file', 'The file is empty (0 bytes); empty files are not imported. Check that it was saved completely.');
export const pdfEnvelopeMissing = () => e(422, 'pdf_envelope_missing', 'The file is named .pdf but does not start with %PDF-, so it is not a PDF (a web page or a partial download?); get the real PDF and import that.');
export const notUtf8 = () => e(422, 'not_utf8', 'The text is not strict UTF-8; save it as UTF-8 in an editor and import it again.');
export const containsNul = () => e(422, 'contains_nul', 'The text contains a NUL character, so it is not plain text; remove the NUL bytes or import the document as PDF.');
export const fileTooLarge = (limit: number) => e(413, 'file_too_large', `A Library file may have at most ${limit} bytes; split it or import a smaller version.`, { limit_bytes: limit });
export const vaultFull = (limit: number, retained: number) => e(413, 'vault_full', `The vault may retain at most ${limit} bytes; it holds ${retained} and takes no file this large (files are never deleted).`, { limit_bytes: limit, retained_bytes: retained });
export const catalogFull = (limit: number) => e(413, 'catalog_full', `The vault may hold at most ${limit} files; it takes no more (files are never deleted).`, { limit_items: limit });

// Identity
export const documentNotFound = (id: number) => e(404, 'document_not_found', `No paper with id ${id}.`, { document_id: id });
export const fileNotFound = () => e(404, 'file_not_found', 'No Library file with this file_id in this vault.');
export const versionNotFile = (versionId: string, fileId: string, name: string) =>
  e(404, 'file_not_found', `${versionId} is the version_id of ${name}, not a file_id; name the file by its file_id ${fileId}.`, { file_id: fileId, version_id: versionId });
export const versionMismatch = (versionId: string) => e(409, 'version_mismatch', 'expected_version_id is not the version of this file.', { version_id: versionId });
export const digestCollision = () => e(409, 'digest_collision', 'A retained file has the same SHA-256 but different bytes; the import is refused and nothing was changed.');
export const mediaConflict = (fileId: string) => e(409, 'media_conflict', 'The same bytes are already retained as another media type; rename the file to match it.', { file_id: fileId });

// Import blockers
export const blockedLock = (holderRunning: boolean | null) =>
  e(
    409,
    'import_blocked_lock',
    holderRunning
      ? 'Another import holds the vault lock (.svc-import.lock in the vault folder); wait for it to finish.'
      : 'A lock (.svc-import.lock in the vault folder) was left by an import that did not finish. Make sure no svc import is running, run `svc library check`, then delete that lock file.',
    { lock_holder_running: holderRunning },
  );
export const blockedOrphans = (paths: string[]) =>
  e(409, 'import_blocked_orphans', `The vault holds ${paths.length} file(s) no catalog entry records (left by an interrupted import). Run \`svc library check\`, move them out of the vault folder and import them again.`, { paths: paths.slice(0, 20) });
export const blockedSize = (paths: string[]) =>
  e(409, 'import_blocked_size_mismatch', `${paths.length} retained file(s) differ in size from the catalog. Run \`svc library check\` and restore them from a backup.`, { paths: paths.slice(0, 20) });
export const blockedMissing = (paths: string[]) =>
  e(409, 'import_blocked_missing', `${paths.length} retained file(s) are missing from the vault folder. Run \`svc library check\` and restore them from a backup.`, { paths: paths.slice(0, 20) });
export const blockedUnsafe = (paths: string[]) =>
  e(409, 'import_blocked_unsafe', `The vault holds ${paths.length} symlink(s), hard-linked or non-regular object(s). Run \`svc library check\` and replace them with the plain files.`, { paths: paths.slice(0, 20) });

// Verified reads
export const fileMissing = () => e(409, 'file_missing', 'The retained file is missing from the vault; run `svc library check`.');
export const sizeMismatch = () => e(409, 'file_size_mismatch', 'The retained file differs in size from the catalog; run `svc library check`.');
export const hashMismatch = () => e(409, 'file_hash_mismatch', 'The retained file no longer matches its SHA-256; run `svc library check`.');
export const pathChanged = () => e(409, 'path_changed', 'The path of the retained file no longer leads to the verified file (a folder was moved or replaced by a link).');
export const notText = () => e(422, 'not_text', 'Only TXT and MD files have a text read; this file is a PDF. Read its pages through an evidence project (the page reader).');
export const textTooLarge = (limit: number) => e(413, 'text_too_large', `A text read accepts at most ${limit} original bytes.`, { limit_bytes: limit });
export const tooManyLines = (limit: number) => e(413, 'too_many_lines', `A text read accepts at most ${limit} lines.`, { limit_lines: limit });
export const textJsonTooLarge = (limit: number) => e(413, 'text_json_too_large', `The text envelope would exceed ${limit} bytes of JSON.`, { limit_bytes: limit });
export const exportTooLarge = (limit: number) => e(413, 'export_too_large', `The inventory would exceed ${limit} bytes; it is refused, not truncated.`, { limit_bytes: limit });
