import type { Command } from 'commander';
import { executionManager } from '../../src/executions/manager.js';
import { parseDive } from '../../src/executions/request.js';
import { withContext } from '../lib/context.js';
import { usageError } from '../lib/flags.js';
import type { Io } from '../lib/io.js';
import { applyAiFlags, checkDates, requestBody, requireSearchable, runOptions, savedRequest, type RunFlags } from './run-flags.js';
import { asFlagError, runInForeground } from '../lib/run-foreground.js';

export function register(program: Command, io: Io): void {
  runOptions(
    program
      .command('dive')
      .description('search one repository in the foreground, with live progress (Ctrl-C cancels and keeps what was found)')
      .argument('[repository]', 'repository id (see `svc sources`); may come from --config')
      .argument('[query]', 'what to search for; may come from --config'),
  ).action((repository: string | undefined, query: string | undefined, flags: RunFlags) =>
    withContext(io, async (ctx) => {
      const body: Record<string, unknown> = applyAiFlags({ ...savedRequest(ctx, flags.config, 'dive'), ...requestBody(flags, ctx.clock.now()) }, flags);
      if (repository !== undefined) body.repository = repository;
      if (query !== undefined) body.query = query;
      if (body.repository === undefined || body.query === undefined) throw usageError('svc dive needs a repository and a query: svc dive <repository> <query> (or --config NAME).', 'missing_argument');
      let parsed;
      try {
        parsed = parseDive(body);
      } catch (err) {
        throw asFlagError(err);
      }
      requireSearchable(ctx, parsed.spec.repositories, 'The repository argument');
      checkDates(io, parsed.spec, ctx.clock.now());
      io.exitCode = await runInForeground(ctx, io, () => executionManager(ctx).submit(parsed));
    }),
  );
}
