/**
 * The erase scopes as the command line names them: one short noun for each of
 * the spec's nine (the HTTP routes keep theirs: POST /api/admin/erase-corpus).
 * `svc --help`, `svc erase --help`, svc-admin(1) and the command all take
 * their words from here; main.ts imports it, so it imports nothing at run time.
 */
import type { EraseScope } from '../../src/wire/admin.js';

export const ERASE_WORDS = {
  'ai-keys': 'erase-ai-keys',
  'source-keys': 'erase-repo-keys',
  configs: 'erase-configs',
  executions: 'erase-executions',
  'execution-data': 'erase-execution-data',
  corpus: 'erase-corpus',
  settings: 'reset-settings',
  'app-data': 'erase-app-data',
  everything: 'factory-reset',
} as const satisfies Record<string, EraseScope>;

export type EraseWord = keyof typeof ERASE_WORDS;
export const ERASE_WORD_LIST = Object.keys(ERASE_WORDS) as EraseWord[];

/**
 * The word for `given`: one of the nouns, or the spec's scope name (`erase-corpus`,
 * `factory-reset`), still taken as scripts written against it use it; undefined otherwise.
 */
export function eraseWordOf(given: string): EraseWord | undefined {
  if (Object.hasOwn(ERASE_WORDS, given)) return given as EraseWord;
  return ERASE_WORD_LIST.find((w) => ERASE_WORDS[w] === given);
}
