import type { Migration } from '../migration.js';
import { foundation } from './001-foundation.js';
import { corpus } from './002-corpus.js';
import { executions } from './003-executions.js';
import { routines } from './004-routines.js';
import { library } from './016-library.js';
import { watchProfiles } from './008-watch-profiles.js';
import { assistant } from './015-assistant.js';
import { lifecycleWatchdog } from './007-lifecycle-watchdog.js';
import { admin } from './011-admin.js';
import { deliveries } from './005-deliveries.js';
import { evidence } from './017-evidence.js';
import { readingQueue } from './006-reading-queue.js';
import { corpusProvenance } from './012-corpus-provenance.js';
import { explorerFacetCounts } from './013-explorer-facet-counts.js';
import { corpusMergeCounts } from './020-corpus-merge-counts.js';
import { embeddings } from './009-embeddings.js';
import { links } from './010-links.js';
import { similarityOwners } from './019-similarity-owners.js';
import { answers } from './018-answers.js';
import { settingsSmtpHost } from './022-settings-smtp-host.js';
import { settingsUrlUserinfo } from './021-settings-url-userinfo.js';
import { assistantTurnClaims } from './023-assistant-turn-claims.js';
import { settingsUrlPassword } from './024-settings-url-password.js';
import { lexicalStats } from './025-lexical-stats.js';
import { jobClaims } from './026-job-claims.js';
import { assistantTurnCancel } from './027-assistant-turn-cancel.js';
import { lexicalStatsReusedId } from './028-lexical-stats-reused-id.js';
import { jobClaimsTurnsIdentity } from './029-job-claims-turns-identity.js';
import { routineFollowLifecycle } from './030-routine-follow-lifecycle.js';
import { aiSettingsKnownKeys } from './031-ai-settings-known-keys.js';
import { provenancePatches } from './032-provenance-patches.js';
import { assistantAiSettingsKnownKeys } from './033-assistant-ai-settings-known-keys.js';
import { vectorIndexChanges } from './034-vector-index-changes.js';
import { linkKinds } from './035-link-kinds.js';
import { ownerIdentity } from './036-owner-identity.js';
import { routineReadIndexes } from './037-routine-read-indexes.js';

/**
 * Every schema step (the runner sorts by version). Numbers: 1 foundation,
 * 2 corpus, 3 executions, 4 routines and scheduler, 5 deliveries, 6 reading
 * queue, 7 lifecycle and watchdog, 8 watch profiles, 9 embeddings, 10 links,
 * 11 administration, 12 corpus provenance, 13 explorer facet counts,
 * 15 assistant, 16 library, 17 evidence, 18 selected answers, 19 owners of
 * similarity runs, 20 corpus counts kept by merge, 23 assistant turn claims
 * across processes, 25 lexical lane statistics counted once (its vectors
 * from before removed, to be embedded again), 26 claims of long jobs (link
 * scan, embedding backfill) across processes, 27 a cancel asked of another
 * process's assistant turn, 28 lexical statistics follow a reused document
 * id, 29 assistant turn claims folded into the job claims (23 and 27 made
 * the table it drops) and claims naming their process's boot and start, 30
 * what the lifecycle check of a routine that follows a profile found; 21, 22
 * and 24 repair settings stored before their checks (passwords in
 * URLs and the mail host), 31 keeps only the ai_settings keys svc reads
 * (33 the same in assistant conversations), 32 provenance records stored as
 * patches against their document, 36 the owner columns of executions,
 * deliveries, embedding runs and link scans naming their process's boot and
 * start, 37 indexes for a routine's last run and its deliveries in one state.
 */
export const MIGRATIONS: Migration[] = [
  foundation,
  corpus,
  executions,
  routines,
  // area: delivery (5)
  deliveries,
  // area: explorer (6, 12, 13, 20, 32)
  readingQueue,
  corpusProvenance,
  explorerFacetCounts,
  corpusMergeCounts,
  provenancePatches,
  // area: analytics (7)
  lifecycleWatchdog,
  // area: profiles (8)
  watchProfiles,
  // area: similarity (9, 10, 19, 25, 26, 28, 34)
  embeddings,
  links,
  similarityOwners,
  lexicalStats,
  jobClaims,
  lexicalStatsReusedId,
  vectorIndexChanges,
  linkKinds,
  // area: routines follow (30)
  routineFollowLifecycle,
  // area: routine reads (37)
  routineReadIndexes,
  // area: admin (11)
  admin,
  // area: assistant (15, 23, 27, 29)
  assistant,
  assistantTurnClaims,
  assistantTurnCancel,
  jobClaimsTurnsIdentity,
  library,
  // area: evidence (17)
  evidence,
  // area: answers (18)
  answers,
  // area: owners of rows (36)
  ownerIdentity,
  // area: upgrade repairs (21, 22, 24, 31, 33)
  settingsUrlUserinfo,
  settingsSmtpHost,
  settingsUrlPassword,
  aiSettingsKnownKeys,
  assistantAiSettingsKnownKeys,
];
