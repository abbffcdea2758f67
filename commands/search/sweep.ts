import type { Command } from 'commander';
import { executionManager } from '../../src/executions/manager.js';
import { parseSweep } from '../../src/executions/request.js';
import { withContext } from '../lib/context.js';
import { listFlag, usageError } from '../lib/flags.js';
import type { Io } from '../lib/io.js';
import { applyAiFlags, checkDates, requestBody, requireSearchable, runOptions, savedRequest, type RunFlags } from './run-flags.js';
import { asFlagError, runInForeground } from '../lib/run-foreground.js';

export function register(program: Command, io: Io): void {
  runOptions(
    program
      .command('sweep')
      .description('search several repositories at once in the foreground, with live progress per source')
      .argument('[query]', 'what to search for; may come from --config')
      .option('--sources <ids>', 'comma-separated repository ids, e.g. arxiv,crossref,pubmed; may come from --config'),
  ).action((query: string | undefined, flags: RunFlags & { sources?: string }) =>
    withContext(io, async (ctx) => {
      const body: Record<string, unknown> = applyAiFlags({ ...savedRequest(ctx, flags.config, 'sweep'), ...requestBody(flags, ctx.clock.now()) }, flags);
      const sources = listFlag(flags.sources);
      if (sources !== undefined && sources.length === 0) throw usageError('--sources names no repository; give comma-separated ids (see `svc sources`).', 'no_sources');
      if (sources !== undefined) body.repositories = sources;
      if (query !== undefined) body.query = query;
      if (body.repositories === undefined) throw usageError("svc sweep needs --sources <ids> (or --config NAME).", 'missing_argument');
      if (body.query === undefined) throw usageError('svc sweep needs a query: svc sweep <query> --sources <ids> (or --config NAME).', 'missing_argument');
      let parsed;
      try {
        parsed = parseSweep(body);
      } catch (err) {
        throw asFlagError(err);
      }
      requireSearchable(ctx, parsed.spec.repositories, '--sources');
      checkDates(io, parsed.spec, ctx.clock.now());
      io.exitCode = await runInForeground(ctx, io, () => executionManager(ctx).submit(parsed));
    }),
  );
}
