/**
 * svc explore's flags: the HTTP body they make, checked up front; the service's
 * refusals of it in command-line words (exit 2 naming the flag); and the whole
 * command for the next page.
 */
import { ValidationError, type ValidationIssue } from '../../src/errors.js';
import type { CursorRefusal } from '../../src/explorer/cursor.js';
import { CATALOG } from '../../src/sources/index.js';
import { dateFlag, given, listFlag, usageError } from '../lib/flags.js';
import { nextPageCommand, shellWord } from '../lib/hints.js';

export interface Opts {
  author?: string[];
  category?: string[];
  source?: string[];
  from?: string;
  to?: string;
  sort?: string;
  mode?: string;
  limit?: string;
  next?: string;
  export?: string;
  output?: string;
  force?: boolean;
  facets?: boolean;
  exhaustive?: boolean;
}

// An empty value (a shell variable never set) is kept as '' and refused in body(): dropped, it would widen the search to every paper.
export const collect = (value: string, previous: string[] = []) => {
  const ids = listFlag(value)!;
  return [...previous, ...(ids.length ? ids : [''])];
};
/** Author names and category names may hold commas ("Smith, J.", "Physics, Applied"): one value a flag. */
export const repeat = (value: string, previous: string[] = []) => [...previous, value.trim()];

/** Flags → the HTTP body, checked up front (exit 2 naming the flag). */
export function body(query: string | undefined, o: Opts): Record<string, unknown> {
  for (const [flag, list] of [['--author', o.author], ['--category', o.category], ['--source', o.source]] as const) {
    if (list?.includes('')) throw usageError(`${flag} is empty; give a value or leave ${flag} out.`);
  }
  const from = dateFlag(o.from, '--from');
  const to = dateFlag(o.to, '--to');
  if (from && to && from > to) throw usageError(`--from ${from} is after --to ${to}.`);
  // Every paper's sources are catalog ids: a typo would only answer "No paper matches".
  const unknown = (o.source ?? []).filter((id) => !CATALOG.some((entry) => entry.id === id));
  if (unknown.length) throw usageError(`--source: no source is called ${unknown.map(given).join(', ')}; \`svc sources\` lists the ids.`);
  return {
    query: query ?? null,
    authors: o.author ?? [],
    categories: o.category ?? [],
    sources: o.source ?? [],
    date_from: from ?? null,
    date_to: to ?? null,
  };
}

/** The body fields as the flags that set them, so a refusal names what was typed. */
const FLAG_OF: Record<string, string> = { cursor: '--next', authors: '--author', categories: '--category', sources: '--source', date_from: '--from', date_to: '--to', format: '--export' };

/** A refused cursor in command-line words: what to do names --next, not the body field. */
export const START_OVER = 'leave --next out to start from the first page';
const CURSOR_WORDS: Record<CursorRefusal, string> = {
  empty: `an empty cursor is not one svc gave out; ${START_OVER}`,
  foreign: `that cursor is not one svc gave out; copy the whole --next value a page printed, or ${START_OVER}`,
  other_request: `that cursor belongs to another query, filters, sort, mode or --exhaustive; give the ones of the page that printed it, or ${START_OVER}`,
  semantic_unavailable: `that cursor pages a semantic ranking, which is no longer available (svc embed status says why); ${START_OVER} (a keyword search until it is back)`,
};

/** valibot's bounds ("Invalid length: Expected <=300 but received 600") in words: one value too long, or too many values. */
function lengthWords(i: ValidationIssue): string {
  const most = String(i.ctx?.expected ?? '').replace('<=', '');
  return typeof i.loc[2] === 'number' ? `a value is at most ${most} characters; ${given(String(i.input))} has ${i.ctx?.received}` : `at most ${most} values, not ${i.ctx?.received}`;
}

const issueWords = (i: ValidationIssue) =>
  (i.type === 'cursor_invalid' && CURSOR_WORDS[i.ctx?.cause as CursorRefusal]) || (i.type === 'max_length' && i.loc[1] !== 'query' ? lengthWords(i) : i.msg);

/** Run on a body built from flags; a refusal of it becomes a usage error naming the flag (exit 2). */
export async function fromFlags<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    // The query's refusals name it themselves ("The query only excludes words"): no "the query: " before them.
    const said = err.issues.map((i) => (i.loc[1] === 'query' ? issueWords(i) : `${FLAG_OF[String(i.loc[1])] ?? i.loc.slice(1).join('.')}: ${issueWords(i)}`));
    throw usageError(`${said.join('; ').replace(/\.$/, '')}.`);
  }
}

/** Flags the chosen view has no use for: refused by name, not ignored without a word (a --sort on an export changed nothing). */
export function refuseIgnored(what: string, o: Opts, keys: (keyof Opts)[]): void {
  const named = keys.filter((k) => o[k] !== undefined).map((k) => `--${k}`);
  if (named.length) throw usageError(`${what}; it does not take ${named.join(', ')}.`);
}

/**
 * The next page's whole command: a cursor pages only the query, filters, sort, mode and
 * --exhaustive that printed it, so "add --next X" left the person to retype them exactly.
 * A query that starts with - goes last, after --, as the command line needs it.
 */
export function nextPage(query: string | undefined, o: Opts, cursor: string): string {
  const dashed = query !== undefined && query.startsWith('-');
  const flags: [string, string | undefined][] = [
    ...(o.author ?? []).map((a) => ['--author', a] as [string, string]),
    ...(o.category ?? []).map((c) => ['--category', c] as [string, string]),
    ['--source', o.source?.join(',')],
    ['--from', o.from],
    ['--to', o.to],
    ['--sort', o.sort],
    ['--mode', o.mode],
    ['--limit', o.limit],
    ['--next', cursor],
  ];
  const command = nextPageCommand(query !== undefined && !dashed ? `svc explore ${shellWord(query)}` : 'svc explore', flags);
  return `more: ${command}${o.exhaustive ? ' --exhaustive' : ''}${dashed ? ` -- ${shellWord(query)}` : ''}`;
}
