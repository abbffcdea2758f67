/** SQL of near-duplicate links and link scans. */
import type { Database } from 'better-sqlite3';
import type { LinkInput, LinkVerdict } from './link-rules.js';
import { ownerColumns } from '../claims/rows.js';

export type ScanState = 'running' | 'completed' | 'cancelled' | 'failed' | 'interrupted';

export interface ScanRow {
  id: number;
  state: ScanState;
  total: number;
  scanned: number;
  candidates: number;
  links_written: number;
  /** Links a completed scan removed because no scan of its own found them again. */
  links_removed: number;
  error: string | null;
  owner_runtime_id: string | null;
  /** Not part of any answer (views drop them): only recovery reads them (claims/rows.ts). */
  owner_pid?: number | null;
  owner_boot_id?: string | null;
  owner_pid_start?: number | null;
  started_at_utc: string;
  finished_at_utc: string | null;
}

export interface LinkRow {
  document_a: number;
  document_b: number;
  method: string;
  kind: string;
  score: number;
  evidence_json: string;
  created_at_utc: string;
}

interface RawLinkDoc {
  id: number;
  title: string;
  authors_json: string;
  year: number | null;
  doi: string | null;
  arxiv_id: string | null;
  doc_type: string | null;
  venue: string | null;
  relations_json: string;
}

const LINK_COLUMNS = 'd.id, d.title, d.authors_json, d.year, d.doi, d.arxiv_id, d.doc_type, d.venue, d.relations_json';

const toInput = (r: RawLinkDoc): LinkInput => ({
  id: r.id,
  title: r.title,
  authors: JSON.parse(r.authors_json),
  year: r.year,
  doi: r.doi,
  arxiv_id: r.arxiv_id,
  doc_type: r.doc_type,
  venue: r.venue,
  relations: JSON.parse(r.relations_json),
});

export function linkDocsPage(db: Database, afterId: number, limit: number): LinkInput[] {
  return (db.prepare(`SELECT ${LINK_COLUMNS} FROM documents d WHERE d.id > ? ORDER BY d.id LIMIT ?`).all(afterId, limit) as RawLinkDoc[]).map(toInput);
}

export function linkDocsByIds(db: Database, ids: number[]): LinkInput[] {
  return (db.prepare(`SELECT ${LINK_COLUMNS} FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value`).all(JSON.stringify(ids)) as RawLinkDoc[]).map(toInput);
}

export function writeLinks(db: Database, links: { a: number; b: number; verdict: LinkVerdict }[], scanId: number, now: string): number {
  const upsert = db.prepare(
    `INSERT INTO document_links (document_a, document_b, method, kind, score, evidence_json, created_at_utc, scan_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (document_a, document_b) DO UPDATE SET method = excluded.method, kind = excluded.kind, score = excluded.score, evidence_json = excluded.evidence_json,
     scan_id = excluded.scan_id`,
  );
  let written = 0;
  for (const l of links) {
    const [a, b] = l.a < l.b ? [l.a, l.b] : [l.b, l.a];
    written += upsert.run(a, b, l.verdict.method, l.verdict.kind, l.verdict.score, JSON.stringify(l.verdict.evidence), now, scanId).changes;
  }
  return written;
}

/** Remove the links no scan since `firstScanId` found (written before it, or before schema 35); answers how many. */
export function removeLinksNotFoundSince(db: Database, firstScanId: number): number {
  return db.prepare('DELETE FROM document_links WHERE scan_id IS NULL OR scan_id < ?').run(firstScanId).changes;
}

export function linksOf(db: Database, ids: number[]): LinkRow[] {
  if (ids.length === 0) return [];
  const list = JSON.stringify(ids);
  return db
    .prepare(
      `SELECT * FROM document_links WHERE document_a IN (SELECT value FROM json_each(?))
       UNION SELECT * FROM document_links WHERE document_b IN (SELECT value FROM json_each(?))`,
    )
    .all(list, list) as LinkRow[];
}

export function linkCounts(db: Database): { method: string; kind: string; count: number }[] {
  return db.prepare('SELECT method, kind, COUNT(*) AS count FROM document_links GROUP BY method, kind ORDER BY method, kind').all() as { method: string; kind: string; count: number }[];
}

export function startScan(db: Database, total: number, runtimeId: string, now: string): number {
  return Number(
    db
      .prepare(
        `INSERT INTO link_scans (state, total, owner_runtime_id, owner_pid, owner_boot_id, owner_pid_start, started_at_utc)
         VALUES ('running', @total, @runtimeId, @owner_pid, @owner_boot_id, @owner_pid_start, @now)`,
      )
      .run({ total, runtimeId, now, ...ownerColumns() }).lastInsertRowid,
  );
}

export function progressScan(db: Database, id: number, scanned: number, candidates: number, written: number): void {
  db.prepare('UPDATE link_scans SET scanned = ?, candidates = ?, links_written = ? WHERE id = ?').run(scanned, candidates, written, id);
}

export function finishScan(db: Database, id: number, state: ScanState, error: string | null, now: string, removed = 0): void {
  db.prepare('UPDATE link_scans SET state = ?, error = ?, finished_at_utc = ?, links_removed = ? WHERE id = ?').run(state, error, now, removed, id);
}

export function scanById(db: Database, id: number): ScanRow | undefined {
  return db.prepare('SELECT * FROM link_scans WHERE id = ?').get(id) as ScanRow | undefined;
}

export function latestScan(db: Database): ScanRow | undefined {
  return db.prepare('SELECT * FROM link_scans ORDER BY id DESC LIMIT 1').get() as ScanRow | undefined;
}
