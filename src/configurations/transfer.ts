/**
 * Export and import of saved configurations. Export writes one JSON document
 * for the ids asked; import reads one or more such files (or a bare
 * configuration object, or a list of them), validates everything first and
 * then stores all of it in one transaction, or nothing.
 *
 * Names may repeat (ids tell configurations apart), but an import never
 * doubles what is there: an entry equal to a saved configuration (same name,
 * type and parameters) — or to an earlier entry of the same import — is not
 * stored again and is answered under already_present with that id, so
 * importing one file twice changes nothing. An imported entry whose name
 * another configuration has is stored and answered under shared_names, so the
 * clash is never silent (a name then needs the id where one is chosen).
 */
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { parseStrictJson, StrictJsonError } from '../util/json-strict.js';
import * as v from 'valibot';
import { JsonObject, parseWith } from '../util/validate.js';
import * as repo from './repo.js';
import { checkConfigParameters, checkConfigType, MAX_CONFIG_NAME, type ConfigType } from './schema.js';
import type { ConfigurationImport, ConfigurationImported } from '../wire/configurations.js';

export const EXPORT_FORMAT = 'svc-configurations';
export const EXPORT_VERSION = 1;
export const MAX_EXPORT_IDS = 1000;
export const MAX_IMPORT_FILES = 20;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_CONFIGURATIONS = 1000;

export function exportConfigurations(ctx: Context, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = unique.map((id) => {
    const row = repo.getConfig(ctx.db, id);
    if (!row) throw notFound('configuration_not_found', `No saved configuration ${id}; nothing was exported.`, { id });
    return row;
  });
  const document = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at_utc: ctx.nowIso(),
    configurations: rows.map((r) => ({ name: r.name, config_type: r.config_type, parameters: JSON.parse(r.parameters_json), created_at_utc: r.created_at_utc })),
  };
  const stamp = document.exported_at_utc.slice(0, 19).replace(/[:T]/g, '-');
  return { filename: `svc-configurations-${stamp}.json`, text: JSON.stringify(document, null, 2) + '\n', count: rows.length };
}

export interface ImportFile {
  name: string;
  text: string;
}

const Entry = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MAX_CONFIG_NAME)),
  config_type: v.string(),
  parameters: JsonObject,
  created_at_utc: v.optional(v.string()),
});

/** The configuration entries of one file, whichever of the three shapes it has. */
function entriesOf(value: unknown, loc: (string | number)[]): { entries: unknown[]; locOf: (i: number) => (string | number)[] } {
  if (Array.isArray(value)) return { entries: value, locOf: (i) => [...loc, i] };
  if (typeof value === 'object' && value !== null && 'format' in value) {
    const doc = value as { format: unknown; version: unknown; configurations: unknown };
    if (doc.format !== EXPORT_FORMAT) throw invalid([...loc, 'format'], `Not an svc configurations export (format should be "${EXPORT_FORMAT}")`, 'format_invalid', String(doc.format).slice(0, 64));
    if (doc.version !== EXPORT_VERSION) throw invalid([...loc, 'version'], `Export version ${String(doc.version).slice(0, 16)} is not one this svc reads (${EXPORT_VERSION})`, 'version_unsupported');
    if (!Array.isArray(doc.configurations)) throw invalid([...loc, 'configurations'], 'configurations must be a list', 'list_type');
    return { entries: doc.configurations, locOf: (i) => [...loc, 'configurations', i] };
  }
  return { entries: [value], locOf: () => loc };
}

export function importConfigurations(ctx: Context, files: ImportFile[]): ConfigurationImport {
  if (files.length === 0) throw invalid(['body', 'files'], 'Send at least one file in the multipart field "files"', 'missing');
  if (files.length > MAX_IMPORT_FILES) throw invalid(['body', 'files'], `At most ${MAX_IMPORT_FILES} files per import`, 'too_long', null, { max_items: MAX_IMPORT_FILES, actual_length: files.length });
  const checked: { name: string; type: ConfigType; parameters: Record<string, unknown> }[] = [];
  files.forEach((file, f) => {
    const loc: (string | number)[] = ['body', 'files', f];
    let value: unknown;
    try {
      value = parseStrictJson(file.text);
    } catch (err) {
      throw invalid(loc, `${file.name.slice(0, 64) || 'file'} is not valid JSON: ${err instanceof StrictJsonError ? err.message : 'unreadable'}`, 'json_invalid');
    }
    const { entries, locOf } = entriesOf(value, loc);
    entries.forEach((entry, i) => {
      const where = locOf(i);
      const parsed = parseWith(Entry, entry, where);
      const type = checkConfigType(parsed.config_type, [...where, 'config_type']);
      checked.push({ name: parsed.name, type, parameters: checkConfigParameters(type, parsed.parameters, [...where, 'parameters']) });
      if (checked.length > MAX_IMPORT_CONFIGURATIONS) {
        throw invalid(['body', 'files'], `At most ${MAX_IMPORT_CONFIGURATIONS} configurations per import`, 'too_long', null, { max_items: MAX_IMPORT_CONFIGURATIONS });
      }
    });
  });
  const now = ctx.nowIso();
  return ctx.db.transaction((): ConfigurationImport => {
    const saved = repo.listConfigs(ctx.db).map((r) => ({ id: r.id, name: r.name, type: r.config_type, key: sameKey(r.name, r.config_type, JSON.parse(r.parameters_json)) }));
    const imported: ConfigurationImported[] = [];
    const alreadyPresent: ConfigurationImported[] = [];
    const sharedNames: ConfigurationImport['shared_names'] = [];
    for (const c of checked) {
      const key = sameKey(c.name, c.type, c.parameters);
      const same = saved.find((s) => s.key === key);
      if (same) {
        alreadyPresent.push({ id: same.id, name: c.name, config_type: c.type });
        continue;
      }
      const id = repo.insertConfig(ctx.db, c.name, c.type, c.parameters, now);
      const namesakes = saved.filter((s) => s.name === c.name).map((s) => s.id);
      if (namesakes.length) sharedNames.push({ id, name: c.name, shared_with: namesakes });
      saved.push({ id, name: c.name, type: c.type, key });
      imported.push({ id, name: c.name, config_type: c.type });
    }
    return { imported, count: imported.length, already_present: alreadyPresent, shared_names: sharedNames };
  })();
}

/** Key order does not make two configurations different. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  return value;
}

const sameKey = (name: string, type: string, parameters: unknown) => JSON.stringify([name, type, canonical(parameters)]);
