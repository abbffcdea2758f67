import type { Command } from 'commander';
import { readConfig } from '../../src/config.js';
import { emit, type Io } from '../lib/io.js';

export function register(program: Command, io: Io): void {
  program
    .command('routes')
    .description('list every route the server mounts')
    .option('--missing', '(for developers) list the routes of the spec table shipped in spec/routes.tsv the server does not mount yet, one `METHOD PATH` a line')
    .action(async (opts: { missing?: boolean }) => {
      const { ROUTES } = await import('../../server/routes/index.js');
      if (!opts.missing) {
        const rows = ROUTES.map((r) => ({ method: r.method, path: r.path }));
        return emit(io, { routes: rows }, () => rows.map((r) => `${r.method} ${r.path}`).join('\n'));
      }
      const { findSpecRoutesFile, missingRoutes, readSpecRoutes } = await import('../../server/spec-routes.js');
      const file = findSpecRoutesFile(readConfig(io.env).specRoutesPath);
      const spec = readSpecRoutes(file);
      const missing = missingRoutes(spec, ROUTES);
      emit(io, { spec_file: file, spec_total: spec.length, missing: missing.map((r) => ({ method: r.method, path: r.path })) }, () =>
        missing.map((r) => `${r.method} ${r.path}`).join('\n'),
      );
      // An empty stdout alone reads like a failure: say on stderr what it means.
      if (!io.json && missing.length === 0) io.err(`All ${spec.length} routes of the spec table (${file}) are mounted.`);
    });
}
