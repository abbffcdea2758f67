import type { Command } from 'commander';
import { SvcError } from '../src/errors.js';
import { executionManager } from '../src/executions/manager.js';
import { parseSweep } from '../src/executions/request.js';
import { withContext } from './lib/context.js';
import type { Io } from './lib/io.js';
import { runOptions, requestBody, type RunFlags } from './lib/run-flags.js';
import { asFlagError, runInForeground } from './lib/run-foreground.js';

export function register(program: Command, io: Io): void {
  runOptions(
    program
      .command('sweep')
      .description('search several repositories at once in the foreground, with live progress per source')
      .argument('<query>', 'what to search for')
      .requiredOption('--sources <ids>', 'comma-separated repository ids, e.g. arxiv,crossref,pubmed'),
  ).action((query: string, flags: RunFlags & { sources: string }) =>
    withContext(io, async (ctx) => {
      const repositories = flags.sources.split(',').map((s) => s.trim()).filter(Boolean);
      if (repositories.length === 0) throw new SvcError(400, 'no_sources', 'Name at least one repository with --sources (see `svc sources`).');
      let parsed;
      try {
        parsed = parseSweep({ repositories, query, ...requestBody(flags) });
      } catch (err) {
        throw asFlagError(err);
      }
      io.exitCode = await runInForeground(ctx, io, () => executionManager(ctx).submit(parsed));
    }),
  );
}
