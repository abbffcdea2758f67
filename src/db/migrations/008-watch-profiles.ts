import type { Migration } from '../migration.js';

/**
 * Watch profiles and their matches. A profile's name and aliases are kept as
 * folded name keys (family name + first initial) in their own indexed table,
 * so matching a batch of new documents is one lookup per author, whatever the
 * number of profiles. scanned_through_document_id is the incremental
 * watermark: matching only ever reads documents above it.
 */
export const watchProfiles: Migration = {
  version: 8,
  name: 'watch profiles',
  creates: ['watch_profiles', 'watch_profiles_by_orcid', 'profile_name_keys', 'profile_name_keys_by_key', 'profile_matches', 'profile_matches_by_document'],
  up(db) {
    db.exec(`
      CREATE TABLE watch_profiles (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'group')),
        name TEXT NOT NULL,
        display_name TEXT NOT NULL DEFAULT '',
        orcid TEXT,
        orcid_cited INTEGER NOT NULL DEFAULT 0,
        aliases_json TEXT NOT NULL DEFAULT '[]',
        affiliations_json TEXT NOT NULL DEFAULT '[]',
        field_hints_json TEXT NOT NULL DEFAULT '[]',
        scanned_through_document_id INTEGER NOT NULL DEFAULT 0,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );
      CREATE UNIQUE INDEX watch_profiles_by_orcid ON watch_profiles (orcid) WHERE orcid IS NOT NULL;

      CREATE TABLE profile_name_keys (
        profile_id INTEGER NOT NULL REFERENCES watch_profiles (id) ON DELETE CASCADE,
        name_key TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('name', 'alias')),
        variant TEXT NOT NULL,
        PRIMARY KEY (profile_id, name_key, variant)
      ) WITHOUT ROWID;
      CREATE INDEX profile_name_keys_by_key ON profile_name_keys (name_key);

      CREATE TABLE profile_matches (
        profile_id INTEGER NOT NULL REFERENCES watch_profiles (id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        basis TEXT NOT NULL CHECK (basis IN ('orcid', 'orcid_cited', 'name_affiliation', 'alias', 'name_only')),
        matched_author TEXT,
        evidence TEXT NOT NULL,
        matched_at_utc TEXT NOT NULL,
        PRIMARY KEY (profile_id, document_id)
      ) WITHOUT ROWID;
      CREATE INDEX profile_matches_by_document ON profile_matches (document_id);
    `);
  },
};
