import type { Migration } from '../migration.js';
import { foundation } from './001-foundation.js';

/** Every schema step, in any order (the runner sorts by version). */
export const MIGRATIONS: Migration[] = [foundation];
