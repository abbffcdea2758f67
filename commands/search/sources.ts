import type { Command } from 'commander';
import { readCatalog, searchableRepositories } from '../../src/sources/catalog.js';
import { withContext } from '../lib/context.js';
import { emit, table, type Io } from '../lib/io.js';

export function register(program: Command, io: Io): void {
  program
    .command('sources')
    .description('the repository catalog: what each source can do and whether its key is stored')
    .action(() =>
      withContext(io, (ctx) => {
        const catalog = readCatalog().repositories;
        const now = new Map(searchableRepositories(ctx).repositories.map((r) => [r.id, r]));
        const rows = catalog.map((entry) => ({ ...entry, searchable: now.get(entry.id)!.searchable, key_status: now.get(entry.id)!.key_status, reason: now.get(entry.id)!.reason }));
        // The KEY column names the credential, so a missing key says what to store.
        const missing = rows.some((r) => r.status === 'active' && r.credential && r.key_status !== 'present');
        const footer = missing ? '\nStore a key with `svc credentials set NAME` (read from a hidden prompt or stdin, never an argument).' : '';
        emit(io, { repositories: rows }, () =>
          table([
            ['ID', 'NAME', 'STATUS', 'KEY', 'DATES', 'SEARCHABLE'],
            ...rows.map((r) => [
              r.id,
              r.name,
              r.status,
              r.credential ? `${r.credential.name} (${r.credential.required ? 'required' : 'optional'}, ${r.key_status})` : '-',
              r.capabilities?.date_window ?? '-',
              r.searchable ? 'yes' : `no (${r.reason})`,
            ]),
          ]) + footer,
        );
      }),
    );
}
