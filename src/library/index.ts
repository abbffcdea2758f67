/** The Library's service functions, as the HTTP routes, the CLI and the benchmark use them. */
export { configureLibrary, libraryOf, type LibraryOptions, type ImportHooks } from './service.js';
export { DEFAULT_LIMITS, type LibraryLimits } from './limits.js';
export { libraryStatus } from './status.js';
export { libraryStatusWithFolder } from './status-folder.js';
export { createVault, vaultFolder, type VaultFolder } from './vault.js';
export { checkImportTarget, importFile, type ImportRequest } from './import.js';
export { listFiles, type ListRequest } from './list.js';
export { fileMetadata, openFile, resolveFileId } from './read.js';
export { linkPaper, requireDocument } from './links.js';
export { readText, countLines, normalizeNewlines } from './text.js';
export { exportInventory } from './export.js';
export { checkLibrary, type CheckReport } from './check.js';
export type { Problem } from './scan.js';
export type { LibraryStatus } from '../wire/library.js';
