import type { Command } from 'commander';
import { SvcError } from '../../src/errors.js';
import { checkFormat, nothingToExport, renderReferences, unionReferences } from '../../src/exports/references.js';
import { withContext } from '../lib/context.js';
import { given } from '../lib/flags.js';
import { outFormat, type Io } from '../lib/io.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from '../lib/output-file.js';

const ids = (value: string, previous: number[] = []) => {
  for (const part of value.split(',')) {
    if (!/^[1-9]\d{0,14}$/.test(part.trim())) throw new SvcError(400, 'invalid_id', `Ids are positive whole numbers, not ${given(part)}.`);
    previous.push(Number(part.trim()));
  }
  return previous;
};

export function register(program: Command, io: Io): void {
  const exporter = program.command('export').description('export references');
  exporter
    .command('references')
    .description('references of executions and/or documents, each once, newest first (bibtex, ris, csv, json)')
    .option('--exec <ids>', 'execution ids (repeat or comma-separate)', ids)
    .option('--docs <ids>', 'document ids (repeat or comma-separate)', ids)
    .option('--format <format>', 'bibtex, ris, csv or json (with the global --json: an envelope {format, count, filename, text})', 'bibtex')
    .option('--include-ids', 'add stored document ids (JSON id, CSV document_id)')
    .option('-o, --output <file>', 'write to this file (mode 0600) instead of stdout')
    .option('--force', 'with -o: replace an existing file')
    .action((opts: { exec?: number[]; docs?: number[]; format: string; includeIds?: boolean; output?: string; force?: boolean }) =>
      withContext(io, (ctx) => {
        if (!opts.exec?.length && !opts.docs?.length) throw new SvcError(400, 'nothing_selected', 'Name executions with --exec or documents with --docs.');
        const format = checkFormat(opts.format, ['--format']);
        const into = replaceableWithForce(opts.force);
        // Refused before the references are gathered, not after.
        if (opts.output) checkOutputFile(opts.output, into);
        const docs = unionReferences(ctx, opts.exec ?? [], opts.docs ?? []);
        // An empty file (or an empty page on stdout) would pass for an export; say why there is nothing instead.
        if (docs.length === 0) throw nothingToExport(ctx, opts.exec ?? []);
        const rendered = renderReferences(docs, format, 'svc-references', opts.includeIds);
        if (opts.output) {
          const output = writeOutputFile(opts.output, rendered.text, into);
          io.err(`${rendered.count} references written to ${opts.output}`);
          if (io.json) io.out(JSON.stringify({ format: rendered.format, count: rendered.count, output }, null, 2));
        } else if (io.json) {
          // One JSON document whatever the format: the rendered text travels inside an envelope.
          io.out(JSON.stringify({ format: rendered.format, count: rendered.count, filename: rendered.filename, text: rendered.text }, null, 2));
        } else outFormat(io, rendered.text.replace(/\r?\n$/, ''));
      }),
    );
}
