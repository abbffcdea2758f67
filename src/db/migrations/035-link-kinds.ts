import type { Migration } from '../migration.js';

/**
 * Links say what kind of sameness they claim (issue 33 item 2): kind is
 * same_work (a preprint and its published version, versions, two DOIs of one
 * work, title variants) or related_version (a conference abstract and the
 * later paper, a thesis and the paper a chapter of it became). Every link
 * written before claimed the same work. scan_id names the scan that last
 * found the link: a scan that judges the whole corpus to its end removes the
 * links no scan of its own found again (rules change; a link they no longer
 * make must not stay), and counts them in link_scans.links_removed. Links
 * written before have no scan: the next completed scan judges them again.
 */
export const linkKinds: Migration = {
  version: 35,
  name: 'link-kinds',
  creates: [],
  up(db) {
    db.exec(`
      ALTER TABLE document_links ADD COLUMN kind TEXT NOT NULL DEFAULT 'same_work' CHECK (kind IN ('same_work', 'related_version'));
      ALTER TABLE document_links ADD COLUMN scan_id INTEGER;
      ALTER TABLE link_scans ADD COLUMN links_removed INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
