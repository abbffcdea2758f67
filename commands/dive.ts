import type { Command } from 'commander';
import { executionManager } from '../src/executions/manager.js';
import { parseDive } from '../src/executions/request.js';
import { withContext } from './lib/context.js';
import type { Io } from './lib/io.js';
import { runOptions, requestBody, type RunFlags } from './lib/run-flags.js';
import { asFlagError, runInForeground } from './lib/run-foreground.js';

export function register(program: Command, io: Io): void {
  runOptions(
    program
      .command('dive')
      .description('search one repository in the foreground, with live progress (Ctrl-C cancels and keeps what was found)')
      .argument('<repository>', 'repository id (see `svc sources`)')
      .argument('<query>', 'what to search for'),
  ).action((repository: string, query: string, flags: RunFlags) =>
    withContext(io, async (ctx) => {
      let parsed;
      try {
        parsed = parseDive({ repository, query, ...requestBody(flags) });
      } catch (err) {
        throw asFlagError(err);
      }
      io.exitCode = await runInForeground(ctx, io, () => executionManager(ctx).submit(parsed));
    }),
  );
}
