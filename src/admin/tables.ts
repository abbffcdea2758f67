/**
 * Every table of the database, classified once. The erase scopes, the backup
 * comparison and the restore report all read this table; a test fails when
 * the database has a table that is not listed here, so a feature that adds a
 * table must say what kind of data it holds.
 *
 * Categories:
 *   schema     migration bookkeeping; never erased
 *   admin      backup and restore history of this installation; never erased
 *   app_state  small facts about the installation (onboarding card); factory-reset
 *   settings   settings groups; reset-settings, factory-reset
 *   configs    saved configurations, routines and their schedule; erase-configs and up
 *   executions runs, their sources, events and result lists (report files too)
 *   corpus     papers and what is derived from papers alone
 *   library    the Library catalog (vault and file records); factory-reset forgets
 *              the records but never deletes the vault folder's bytes
 *   conversations  the assistant's saved conversations; erase-app-data, factory-reset
 * Watch profiles and watchdog mutes are things a person set up, like routines
 * (configs); profile matches and lifecycle records are derived from papers
 * (corpus).
 * Virtual tables maintained by triggers of their content table (FTS5 with
 * content=) are listed with the content table's category; their shadow
 * tables follow the virtual table and are not listed.
 */
import type { TableCategory } from '../wire/admin.js';

export const TABLE_CATEGORIES: Record<string, TableCategory> = {
  schema_migrations: 'schema',
  admin_backups: 'admin',
  admin_restores: 'admin',
  app_state: 'app_state',
  settings: 'settings',
  saved_configurations: 'configs',
  routines: 'configs',
  scheduler_jobs: 'configs',
  routine_fires: 'configs',
  executions: 'executions',
  execution_sources: 'executions',
  execution_documents: 'executions',
  execution_events: 'executions',
  documents: 'corpus',
  document_sources: 'corpus',
  documents_fts: 'corpus',
  documents_fts_pending: 'corpus',
  library_paper_links: 'library',
  library_files: 'library',
  library_vaults: 'library',
  // Evidence projects are a person's work on Library files: kept with the Library's records.
  evidence_projects: 'library',
  evidence_project_files: 'library',
  evidence_notes: 'library',
  evidence_answers: 'library',
  delivery_targets: 'configs',
  deliveries: 'executions',
  delivery_attempts: 'executions',
  watch_profiles: 'configs',
  profile_name_keys: 'configs',
  watchdog_mutes: 'configs',
  profile_matches: 'corpus',
  reading_queue: 'corpus',
  // Embeddings and same-work links are derived from papers alone.
  embedding_vectors: 'corpus',
  embedding_runs: 'corpus',
  embedding_stats: 'corpus',
  embedding_index_state: 'corpus',
  embedding_vector_changes: 'corpus',
  document_links: 'corpus',
  link_scans: 'corpus',
  // Which process runs the link scan, the backfill or an index rebuild now; goes with the runs it guards
  // (a conversation's turn claim in the same table goes with the conversations: ROW_CATEGORIES).
  job_claims: 'corpus',
  document_authors: 'corpus',
  document_categories: 'corpus',
  documents_fts_vocab: 'corpus',
  explorer_facet_counts: 'corpus',
  document_facets_pending: 'corpus',
  lifecycle_events: 'corpus',
  lifecycle_checks: 'corpus',
  lifecycle_runs: 'corpus',
  // What a routine that follows a profile checked at a fire, and the events it reported: part of its runs.
  routine_follow_checks: 'executions',
  routine_follow_events: 'executions',
  assistant_sessions: 'conversations',
  assistant_messages: 'conversations',
  assistant_session_choices: 'conversations',
  assistant_turn_choices: 'conversations',
  assistant_model_reports: 'conversations',
};

/**
 * Rows of a table that belong to another category than the table's, by a
 * condition on the row. An erase of that category takes them, one of the
 * table's own category leaves them: erasing papers must not free a
 * conversation whose turn another process runs.
 */
export const ROW_CATEGORIES: Record<string, { category: TableCategory; where: string }[]> = {
  // Which process runs a conversation's turn now (assistant_turn:N); goes with its conversation.
  job_claims: [{ category: 'conversations', where: "job GLOB 'assistant_turn:*'" }],
};

/**
 * Columns that hold a secret. A backup bundle's copy of the database has them
 * emptied (NULL), overwritten on disk (secure_delete), so no secret travels in
 * a bundle, local or uploaded; whoever owns the column makes a new one after a
 * restore (delivery/targets.ts gives webhook destinations fresh secrets).
 */
export const SECRET_COLUMNS: Record<string, readonly string[]> = {
  delivery_targets: ['secret'],
};
