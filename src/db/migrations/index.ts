import type { Migration } from '../migration.js';
import { foundation } from './001-foundation.js';
import { corpus } from './002-corpus.js';
import { executions } from './003-executions.js';
import { routines } from './004-routines.js';
import { library } from './016-library.js';

/**
 * Every schema step (the runner sorts by version). Numbers: 1 foundation,
 * 2 corpus, 3 executions, 4 routines and scheduler, 16 library; the spec
 * reserves 15 (assistant), 17 (evidence) and 18 (selected answers).
 */
export const MIGRATIONS: Migration[] = [foundation, corpus, executions, routines, library];
