import type { Command } from 'commander';
import { SIMILAR_DEFAULT_LIMIT, SIMILAR_MAX_LIMIT, similarDocuments } from '../../src/similarity/similar.js';
import { withContext } from '../lib/context.js';
import { idArg, intFlag } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';
import { clip } from '../lib/words.js';

export function register(program: Command, io: Io): void {
  program
    .command('similar')
    .description('papers nearest to one document (an empty answer says why)')
    .argument('<doc_id>', 'document id')
    .option('--limit <n>', `results, 1 to ${SIMILAR_MAX_LIMIT} (default ${SIMILAR_DEFAULT_LIMIT})`)
    .action((raw: string, opts: { limit?: string }) => {
      const id = idArg(raw, 'document');
      const limit = intFlag(opts.limit, '--limit', { min: 1, max: SIMILAR_MAX_LIMIT }, SIMILAR_DEFAULT_LIMIT);
      return withContext(io, async (ctx) => {
        const answer = await similarDocuments(ctx, id, limit);
        emit(io, answer, () => {
          if (answer.results.length === 0) return `Nothing similar to ${id}: ${answer.message}`;
          const head = `${answer.results.length} nearest to ${id} by ${answer.model}${answer.kind === 'lexical' ? ' (lexical: shared words, not meaning)' : ''}:`;
          return [head, table([['ID', 'DISTANCE', 'YEAR', 'SOURCES', 'TITLE'], ...answer.results.map((r) => [String(r.document_id), r.distance.toFixed(4), String(r.year ?? ''), r.sources.join(','), clip(r.title, 90)])])].join('\n');
        });
      });
    });
}
