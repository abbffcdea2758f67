import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { SvcError } from '../../src/errors.js';
import { CONFIG_TYPES } from '../../src/configurations/schema.js';
import { createConfiguration, deleteConfiguration, listConfigurations, requireConfig } from '../../src/configurations/service.js';
import { exportConfigurations, importConfigurations, MAX_IMPORT_BYTES } from '../../src/configurations/transfer.js';
import { parseStrictJson } from '../../src/util/json-strict.js';
import { confirmDestructive, declined } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from '../lib/output-file.js';
import { emit, table, type Io } from '../lib/io.js';
import { oneLine } from '../lib/words.js';
import { enumFlag, idArg } from '../lib/flags.js';

/** One working --parameters per config_type: a dive names one `repository`, a sweep and a routine a list of `repositories`. */
export const PARAMETER_EXAMPLES: Record<(typeof CONFIG_TYPES)[number], string> = {
  dive: '{"repository":"arxiv","query":"graphs"}',
  sweep: '{"repositories":["arxiv","crossref"],"query":"graphs"}',
  routine: '{"repositories":["arxiv"],"query":"graphs","window_days":7}',
};

function jsonArg(raw: string, flag: string): unknown {
  try {
    return parseStrictJson(raw);
  } catch (err) {
    throw new SvcError(400, 'invalid_json', `${flag} must be JSON: ${(err as Error).message}`);
  }
}

export function register(program: Command, io: Io): void {
  const config = program.command('config').description(`saved configurations (${CONFIG_TYPES.join(', ')}): list, add, export, import, delete`);
  config
    .command('list')
    .option('--type <type>', `only one config_type: ${CONFIG_TYPES.join(', ')}`)
    .description('every saved configuration')
    .action((opts: { type?: string }) => withContext(io, (ctx) => {
      const page = listConfigurations(ctx, enumFlag(opts.type, '--type', CONFIG_TYPES));
      emit(io, page, () =>
        page.configurations.length
          ? table([['ID', 'TYPE', 'RUNS', 'NAME'], ...page.configurations.map((c) => [String(c.id), c.config_type, String(c.execution_count), c.name])])
          : 'No saved configurations.',
      );
    }));
  config
    .command('add')
    .requiredOption('--name <name>', 'what to call it')
    .requiredOption('--type <type>', `config_type: ${CONFIG_TYPES.join(', ')}`)
    .requiredOption('--parameters <json>', 'the request body it saves, as JSON; its fields depend on --type (examples below)')
    .option('--link-execution <id>', 'the execution it was saved from')
    .description('save a configuration (validated as the request of its type)')
    .addHelpText('after', `\nExamples (a dive searches one source, a sweep or routine several):\n${Object.entries(PARAMETER_EXAMPLES).map(([type, json]) => `  svc config add --name graphs --type ${type} --parameters '${json}'`).join('\n')}`)
    .action((opts: { name: string; type: string; parameters: string; linkExecution?: string }) => withContext(io, (ctx) => {
      const created = createConfiguration(ctx, {
        name: opts.name,
        config_type: opts.type,
        parameters: jsonArg(opts.parameters, '--parameters'),
        link_to_execution_id: opts.linkExecution ? idArg(opts.linkExecution, 'execution') : null,
      });
      emit(io, created, () => `Saved configuration ${created.id} (${created.config_type}): ${created.name}`);
      // Names may repeat (ids tell them apart); a repeat is said, never silent.
      const namesakes = listConfigurations(ctx).configurations.filter((c) => c.name === created.name && c.id !== created.id).map((c) => c.id);
      if (namesakes.length) io.err(`Note: configuration${namesakes.length > 1 ? 's' : ''} ${namesakes.join(', ')} ${namesakes.length > 1 ? 'are' : 'is'} also called "${oneLine(created.name)}"; name ${namesakes.length > 1 ? 'them' : 'it'} by id.`);
    }));
  config
    .command('export')
    .argument('<ids...>', 'configuration ids')
    .option('-o, --output <file>', 'write the file here (mode 0600) instead of standard output')
    .option('--force', 'with -o: replace an existing file')
    .description('write the configurations to one JSON file')
    .action((ids: string[], opts: { output?: string; force?: boolean }) => withContext(io, (ctx) => {
      const into = replaceableWithForce(opts.force);
      if (opts.output) checkOutputFile(opts.output, into);
      const file = exportConfigurations(ctx, ids.map((id) => idArg(id, 'configuration')));
      if (!opts.output) return io.out(file.text.trimEnd());
      const written = writeOutputFile(opts.output, file.text, into);
      io.err(`Wrote ${file.count} configuration(s) to ${written}`);
      if (io.json) io.out(JSON.stringify({ path: written, count: file.count }));
    }));
  config
    .command('import')
    .argument('<files...>', 'JSON files written by export (or a configuration object, or a list of them)')
    .description('import configurations: all of them or, on any error, none; one already saved (same name, type, parameters) is not imported twice')
    .action((files: string[]) => withContext(io, (ctx) => {
      let total = 0;
      const read = files.map((f) => {
        if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new SvcError(404, 'file_not_found', `No file ${f} to import; name a JSON file \`svc config export\` wrote.`);
        const size = fs.statSync(f).size;
        total += size;
        if (total > MAX_IMPORT_BYTES) throw new SvcError(413, 'body_too_large', `The files add up to more than ${MAX_IMPORT_BYTES} bytes.`);
        return { name: path.basename(f), text: fs.readFileSync(f, 'utf8') };
      });
      const answer = importConfigurations(ctx, read);
      emit(io, answer, () =>
        [
          answer.count ? `Imported ${answer.count} configuration(s): ${answer.imported.map((c) => `${c.id} ${c.name}`).join(', ')}` : 'Imported nothing new.',
          ...answer.already_present.map((c) => `  already saved as ${c.id}: ${c.name} (${c.config_type}); not imported again`),
          ...answer.shared_names.map((c) => `  ${c.id} ${c.name} shares its name with ${c.shared_with.join(', ')}; name it by id`),
        ].join('\n'),
      );
    }));
  config
    .command('delete')
    .argument('<id>', 'configuration id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('delete a saved configuration (runs that used it stay)')
    .action((id: string, opts: { yes?: boolean }) => withContext(io, async (ctx) => {
      const row = requireConfig(ctx, idArg(id, 'configuration'));
      if (!(await confirmDestructive(io, `Delete saved configuration ${row.id} (${row.name})?`, opts.yes))) return declined(io, { id: row.id });
      emit(io, deleteConfiguration(ctx, row.id), () => `Configuration ${row.id} deleted.`);
    }));
}
