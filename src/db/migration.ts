import type { Database } from 'better-sqlite3';

/**
 * One step of the schema. Numbers follow the spec: the core uses 1–14,
 * 15 assistant choices, 16 library, 17 evidence, 18 selected answers, later
 * features 19 and up.
 */
export interface Migration {
  version: number;
  name: string;
  /** Tables, virtual tables and indexes this step creates: absent before, present after. */
  creates: string[];
  up(db: Database): void;
}
