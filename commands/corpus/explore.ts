import type { Command } from 'commander';
import { exportExplorer } from '../../src/explorer/export.js';
import { explorerFacets } from '../../src/explorer/facets.js';
import { EXPLORER_LIMIT, EXPLORER_MODES, FACET_LIMIT, EXPLORER_SORTS, parseExportBody, parseFacetsBody, parseSearchBody } from '../../src/explorer/filters.js';
import { RANK_BOUND, searchExplorer } from '../../src/explorer/search.js';
import { REFERENCE_FORMATS } from '../../src/exports/references.js';
import { withContext } from '../lib/context.js';
import { body, collect, fromFlags, nextPage, refuseIgnored, repeat, START_OVER, type Opts } from './explore-args.js';
import { enumFlag, intFlag, usageError } from '../lib/flags.js';
import { emit, outFormat, table, type Io } from '../lib/io.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from '../lib/output-file.js';
import { count } from '../lib/words.js';

/** Nothing asked of the corpus but everything: no match then means no paper at all, and the first day needs the command that collects some. */
const NO_PAPERS_YET = 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.';
const everything = (f: Record<string, unknown>) => f.query === null && ['authors', 'categories', 'sources'].every((k) => (f[k] as string[]).length === 0) && f.date_from === null && f.date_to === null;

const paperLine = (p: { id: number; publication_date: string | null; sources: string[]; title: string }) => [String(p.id), p.publication_date ?? '—', p.sources.join(','), p.title];

/** A facet cut at --limit says so: "32 values" over 20 rows would read as all of them. */
function shownOf(shown: number, distinct: number, limit: number | undefined): string {
  if (shown >= distinct) return '';
  const more = limit !== undefined && limit < FACET_LIMIT.max ? `; --limit up to ${FACET_LIMIT.max} shows more` : '';
  return `, the ${shown} with the most papers shown${more}`;
}

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
              : [`${count(answer.total, 'paper')} ${answer.total === 1 ? 'matches' : 'match'}.`, ...Object.entries(answer.facets).map(([name, f]) => `\n${name.toUpperCase()} (${count(f.distinct_values, 'value')}${shownOf(f.values.length, f.distinct_values, perFacet)}${f.exact ? '' : `; counted over the ${f.counted_papers} most recently added matching papers`})\n` + (f.values.length ? table(f.values.map((v) => [String(v.count), (('label' in v && v.label) || v.value) + (v.selected ? '  (selected)' : '')])) : '(none among the matching papers)'))].join('\n'),
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
