import type { Command } from 'commander';
import { exportExplorer } from '../src/explorer/export.js';
import { explorerFacets } from '../src/explorer/facets.js';
import { EXPLORER_LIMIT, EXPLORER_MODES, FACET_LIMIT, EXPLORER_SORTS, parseExportBody, parseFacetsBody, parseSearchBody } from '../src/explorer/filters.js';
import { RANK_BOUND, searchExplorer } from '../src/explorer/search.js';
import { REFERENCE_FORMATS } from '../src/exports/references.js';
import { CATALOG } from '../src/sources/index.js';
import { ValidationError, type ValidationIssue } from '../src/errors.js';
import type { CursorRefusal } from '../src/explorer/cursor.js';
import { withContext } from './lib/context.js';
import { dateFlag, enumFlag, given, intFlag, listFlag, usageError } from './lib/flags.js';
import { nextPageCommand, shellWord } from './lib/hints.js';
import { emit, outFormat, table, type Io } from './lib/io.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from './lib/output-file.js';
import { count } from './lib/words.js';

interface Opts {
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
const collect = (value: string, previous: string[] = []) => {
  const ids = listFlag(value)!;
  return [...previous, ...(ids.length ? ids : [''])];
};
/** Author names and category names may hold commas ("Smith, J.", "Physics, Applied"): one value a flag. */
const repeat = (value: string, previous: string[] = []) => [...previous, value.trim()];

/** Flags → the HTTP body, checked up front (exit 2 naming the flag). */
function body(query: string | undefined, o: Opts): Record<string, unknown> {
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
const START_OVER = 'leave --next out to start from the first page';
const CURSOR_WORDS: Record<CursorRefusal, string> = {
  empty: `an empty cursor is not one svc gave out; ${START_OVER}`,
  foreign: `that cursor is not one svc gave out; copy the whole --next value a page printed, or ${START_OVER}`,
  other_request: `that cursor belongs to another query, filters, sort, mode or --exhaustive; give the ones of the page that printed it, or ${START_OVER}`,
};

/** valibot's bounds ("Invalid length: Expected <=300 but received 600") in words: one value too long, or too many values. */
function lengthWords(i: ValidationIssue): string {
  const most = String(i.ctx?.expected ?? '').replace('<=', '');
  return typeof i.loc[2] === 'number' ? `a value is at most ${most} characters; ${given(String(i.input))} has ${i.ctx?.received}` : `at most ${most} values, not ${i.ctx?.received}`;
}

const issueWords = (i: ValidationIssue) =>
  (i.type === 'cursor_invalid' && CURSOR_WORDS[i.ctx?.cause as CursorRefusal]) || (i.type === 'max_length' && i.loc[1] !== 'query' ? lengthWords(i) : i.msg);

/** Run on a body built from flags; a refusal of it becomes a usage error naming the flag (exit 2). */
async function fromFlags<T>(run: () => T | Promise<T>): Promise<T> {
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
function refuseIgnored(what: string, o: Opts, keys: (keyof Opts)[]): void {
  const given = keys.filter((k) => o[k] !== undefined).map((k) => `--${k}`);
  if (given.length) throw usageError(`${what}; it does not take ${given.join(', ')}.`);
}

/**
 * The next page's whole command: a cursor pages only the query, filters, sort, mode and
 * --exhaustive that printed it, so "add --next X" left the person to retype them exactly.
 * A query that starts with - goes last, after --, as the command line needs it.
 */
function nextPage(query: string | undefined, o: Opts, cursor: string): string {
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

/** Nothing asked of the corpus but everything: no match then means no paper at all, and the first day needs the command that collects some. */
const NO_PAPERS_YET = 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.';
const everything = (f: Record<string, unknown>) => f.query === null && ['authors', 'categories', 'sources'].every((k) => (f[k] as string[]).length === 0) && f.date_from === null && f.date_to === null;

const paperLine = (p: { id: number; publication_date: string | null; sources: string[]; title: string }) => [String(p.id), p.publication_date ?? '—', p.sources.join(','), p.title];

export function register(program: Command, io: Io): void {
  program
    .command('explore')
    .argument('[query]', 'words to find in title, abstract and authors ("a phrase", prefix*, -exclude)')
    .description('search, facet and export the whole corpus, newest first, paged by cursor')
    .option('--author <name>', 'only papers with this author (repeat the flag for more; a comma is part of the name)', repeat)
    .option('--category <name>', 'only papers in this subject category (repeat the flag for more)', repeat)
    .option('--source <id>', 'only papers found by this source (repeat or comma-separate)', collect)
    .option('--from <date>', 'published on or after YYYY-MM-DD')
    .option('--to <date>', 'published on or before YYYY-MM-DD')
    .option('--sort <order>', `${EXPLORER_SORTS.join(' or ')} (default newest)`)
    .option('--exhaustive', `with --sort relevance: rank every match (by default, past ${RANK_BOUND.toLocaleString('en-US')} matches, the most recently added ${RANK_BOUND.toLocaleString('en-US')} are ranked; slower)`)
    .option('--mode <mode>', `${EXPLORER_MODES.join(' or ')} (default keyword; semantic falls back to keyword, saying why)`)
    .option('--limit <n>', `papers per page, ${EXPLORER_LIMIT.min} to ${EXPLORER_LIMIT.max} (default ${EXPLORER_LIMIT.default}); with --facets, authors, categories and sources listed per facet, ${FACET_LIMIT.min} to ${FACET_LIMIT.max} (default ${FACET_LIMIT.default}; every year is listed)`)
    .option('--next <cursor>', 'the next page: the cursor the previous page printed')
    .option('--facets', 'print the values and counts of each filter instead of papers')
    .option('--export <format>', `every matching paper (not the page) as ${REFERENCE_FORMATS.join(', ')}`)
    .option('-o, --output <file>', 'with --export: write to this file (mode 0600) instead of stdout')
    .option('--force', 'with --output: replace an existing file')
    .action((query: string | undefined, o: Opts) => {
      // An empty --next (a shell variable that was never set) would otherwise page from the start unnoticed.
      if (o.next !== undefined && !o.next.trim()) throw usageError(`--next is empty; ${START_OVER}.`);
      const filters = body(query, o);
      const sort = enumFlag(o.sort, '--sort', EXPLORER_SORTS);
      const mode = enumFlag(o.mode, '--mode', EXPLORER_MODES);
      // With --facets, --limit is the values listed per facet (its own range; years are all listed); otherwise papers per page.
      const limit = o.facets ? EXPLORER_LIMIT.default : intFlag(o.limit, '--limit', EXPLORER_LIMIT, EXPLORER_LIMIT.default);
      const perFacet = o.facets ? intFlag(o.limit, '--limit', FACET_LIMIT, FACET_LIMIT.default) : undefined;
      const format = enumFlag(o.export, '--export', REFERENCE_FORMATS);
      if (o.output && !format) throw usageError('--output goes with --export.');
      if (format) refuseIgnored('--export takes every matching paper in corpus order', o, ['facets', 'next', 'sort', 'mode', 'limit', 'exhaustive']);
      if (o.facets) refuseIgnored('--facets counts every matching paper', o, ['next', 'sort', 'mode', 'exhaustive']);
      if (sort === 'relevance' && !query && mode !== 'semantic') throw usageError('--sort relevance needs a query.');
      if (o.exhaustive && sort !== 'relevance') throw usageError('--exhaustive goes with --sort relevance (newest first always lists every match).');
      const into = replaceableWithForce(o.force);
      // Refused before every matching paper is rendered, not after.
      if (o.output) checkOutputFile(o.output, into);
      return withContext(io, async (ctx) => {
        if (format) {
          const rendered = await fromFlags(() => exportExplorer(ctx, parseExportBody({ ...filters, format })));
          if (o.output) {
            // The same envelope as `svc export references -o`: output is the absolute path written.
            const output = writeOutputFile(o.output, rendered.text, into);
            if (io.json) io.out(JSON.stringify({ format, count: rendered.count, output }, null, 2));
            io.err(`${rendered.count} references written to ${o.output}`);
          } else if (io.json) io.out(JSON.stringify({ format, count: rendered.count, filename: rendered.filename, text: rendered.text }, null, 2));
          else outFormat(io, rendered.text.replace(/\r?\n$/, ''));
          return;
        }
        if (o.facets) {
          const answer = await fromFlags(() => explorerFacets(ctx, parseFacetsBody({ ...filters, limit_per_facet: perFacet })));
          emit(io, answer, () =>
            // Nothing matching: one line, not four headings over empty tables.
            answer.total === 0 && Object.values(answer.facets).every((f) => f.values.length === 0)
              ? everything(filters) ? NO_PAPERS_YET : 'No paper matches.'
              : [`${count(answer.total, 'paper')} ${answer.total === 1 ? 'matches' : 'match'}.`, ...Object.entries(answer.facets).map(([name, f]) => `\n${name.toUpperCase()} (${count(f.distinct_values, 'value')}${f.exact ? '' : `; counted over the ${f.counted_papers} most recently added matching papers`})\n` + (f.values.length ? table(f.values.map((v) => [String(v.count), (('label' in v && v.label) || v.value) + (v.selected ? '  (selected)' : '')])) : '(none among the matching papers)'))].join('\n'),
          );
          return;
        }
        const answer = await fromFlags(() => searchExplorer(ctx, parseSearchBody({ ...filters, sort, mode, limit, cursor: o.next ?? null, exhaustive: o.exhaustive ?? false })));
        emit(io, answer, () => {
          const lines: string[] = [];
          if (answer.mode_unavailable) lines.push(`(${answer.mode_unavailable.message})`);
          if (answer.mode === 'semantic') {
            // Ranked by nearness, not by date: say by what, and whether that nearness is meaning or shared words.
            if (answer.unranked_count) lines.push(`(${count(answer.unranked_count, 'matching paper')} ${answer.unranked_count === 1 ? 'has' : 'have'} no vector for ${answer.model} yet and ${answer.unranked_count === 1 ? 'is' : 'are'} not ranked; \`svc embed backfill\` embeds ${answer.unranked_count === 1 ? 'it' : 'them'}.)`);
            lines.push(`Nearest first by ${answer.model}${answer.kind === 'lexical' ? ' (lexical: shared words, not meaning)' : ''}:`);
            lines.push(answer.papers.length ? table([['ID', 'DISTANCE', 'DATE', 'SOURCES', 'TITLE'], ...answer.papers.map((p) => { const [id, ...rest] = paperLine(p); return [id, typeof p.distance === 'number' ? p.distance.toFixed(4) : '—', ...rest]; })]) : 'No paper matches.');
            return lines.join('\n');
          }
          if (answer.ranking && !answer.ranking.exhaustive) {
            const bound = answer.ranking.ranked_papers!.toLocaleString('en-US');
            lines.push(`(More than ${bound} papers match: ranked among the ${bound} most recently added. Add words or filters to narrow the match, or --exhaustive to rank every one, slower.)`);
          }
          lines.push(answer.papers.length ? table([['ID', 'DATE', 'SOURCES', 'TITLE'], ...answer.papers.map(paperLine)]) : everything(filters) && !o.next ? NO_PAPERS_YET : 'No paper matches.');
          return lines.join('\n');
        });
        if (!io.json && answer.next_cursor) io.err(nextPage(query, o, answer.next_cursor));
      });
    });
}
