/** The Evidence service functions, as the HTTP routes, the CLI, selected answers and the benchmark use them. */
export { configureEvidence, evidenceOf, requireProject, type EvidenceOptions, type ProjectRef } from './service.js';
export { DEFAULT_EVIDENCE_LIMITS, type EvidenceLimits } from './limits.js';
export { createProject, listProjects, showProject, renameProject, checkProjectName, resolveProjectId } from './projects.js';
export { addMember, removeMember, listMembers, requireMember, findVersion, type VersionSelector } from './members.js';
export { createNote, editNote, listNotes, type CreateNote, type EditNote } from './notes.js';
export type { AnchorInput } from '../wire/evidence.js';
export { readPage, readPdfBytes, warmPdfReader, type ReadRequest } from './reader.js';
export { pageHighlights, type Highlight, type NotHighlighted } from './highlights.js';
export { extractPage, pageStatuses, contractOf, basisOf, sha256Text, TEXT_CONTRACT, PDF_CONTRACT, type PageStatus, type ExtractRequest } from './extract.js';
export { codepointLength, sliceCodepoints, hasLoneSurrogate } from './codepoints.js';
export { buildBundle, type Bundle, type BundleRequest } from './bundle.js';
