/** Helpers for similarity tests: documents written straight into the corpus table. */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { FIXTURES } from './_setup.js';

export interface SeedDoc {
  id?: number;
  title: string;
  abstract?: string | null;
  authors?: { name: string; family?: string }[];
  year?: number | null;
  doi?: string | null;
  arxiv_id?: string | null;
  doc_type?: string | null;
  venue?: string | null;
  relations?: unknown[];
}

/** Insert documents (ids as given or assigned); answers their ids. */
export function seedDocuments(db: Database, docs: SeedDoc[]): number[] {
  const insert = db.prepare(
    `INSERT INTO documents (id, title, title_key, abstract, authors_json, year, doi, arxiv_id, doc_type, venue, relations_json, first_seen_at_utc, updated_at_utc)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`,
  );
  return db.transaction(() =>
    docs.map((d) =>
      Number(
        insert.run(d.id ?? null, d.title, d.title.toLowerCase(), d.abstract ?? null, JSON.stringify(d.authors ?? []), d.year ?? null, d.doi ?? null, d.arxiv_id ?? null, d.doc_type ?? null, d.venue ?? null, JSON.stringify(d.relations ?? []))
          .lastInsertRowid,
      ),
    ),
  )();
}

export interface LabelledSet {
  documents: (SeedDoc & { id: number })[];
  pairs: { a: number; b: number; label: boolean; kind: string }[];
}

export function labelledSet(): LabelledSet {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'links', 'labelled-pairs.json'), 'utf8'));
}

/** A small corpus on three topics, for similarity. */
export const TOPICS: SeedDoc[] = [
  { title: 'Coral reef bleaching under marine heatwaves', abstract: 'Thermal stress bleaches corals across reefs of the Great Barrier Reef.' },
  { title: 'Marine heatwaves and coral bleaching on tropical reefs', abstract: 'Coral reefs bleach when heatwaves raise sea temperature.' },
  { title: 'Recovery of reef corals after mass bleaching', abstract: 'Coral cover on reefs recovers slowly after bleaching events.' },
  { title: 'Transformer language models for machine translation', abstract: 'Attention-based transformers translate between languages.' },
  { title: 'Neural machine translation with attention transformers', abstract: 'We train transformer models for translation.' },
  { title: 'Protein structure prediction with deep learning', abstract: 'Deep networks predict protein folding and structure from sequence.' },
  { title: 'Deep learning predicts protein folding', abstract: 'Protein structures are predicted by deep neural networks.' },
];
