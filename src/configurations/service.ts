/**
 * Saved configurations: list, create (optionally linked to the execution it
 * was saved from), update, delete. Export and import are in transfer.ts.
 */
import type { Context } from '../context.js';
import { notFound, SvcError } from '../errors.js';
import { parseWith } from '../util/validate.js';
import * as repo from './repo.js';
import { checkConfigParameters, checkConfigType, ConfigCreate, ConfigUpdate, type ConfigType } from './schema.js';
import type { Configuration, ConfigurationCreated, ConfigurationDeleted, ConfigurationList } from '../wire/configurations.js';

export function configView(ctx: Context, row: repo.ConfigRow): Configuration {
  return {
    id: row.id,
    name: row.name,
    config_type: row.config_type,
    parameters: JSON.parse(row.parameters_json) as Record<string, unknown>,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
    execution_count: repo.executionsUsing(ctx.db, row.id),
  };
}

export function requireConfig(ctx: Context, id: number): repo.ConfigRow {
  const row = repo.getConfig(ctx.db, id);
  if (!row) throw notFound('configuration_not_found', `No saved configuration ${id}; GET /api/configurations (or \`svc config list\`) lists them.`);
  return row;
}

/**
 * A saved configuration named by a person: its id, or its exact name. Several
 * configurations may share a name; then the id must be given.
 */
export function findConfiguration(ctx: Context, nameOrId: string, type?: ConfigType): repo.ConfigRow {
  const byId = /^[1-9]\d{0,14}$/.test(nameOrId) ? repo.getConfig(ctx.db, Number(nameOrId)) : undefined;
  const matches = byId ? [byId] : repo.listConfigs(ctx.db, type).filter((row) => row.name === nameOrId.trim());
  if (matches.length === 0) throw notFound('configuration_not_found', `No saved ${type ?? ''} configuration "${nameOrId}"; \`svc config list${type ? ` --type ${type}` : ''}\` lists them.`.replace('  ', ' '));
  if (matches.length > 1) throw new SvcError(400, 'ambiguous_name', `${matches.length} saved configurations are called "${nameOrId}" (ids ${matches.map((m) => m.id).join(', ')}); give the id.`);
  return matches[0]!;
}

export function listConfigurations(ctx: Context, type?: ConfigType): ConfigurationList {
  const configurations = repo.listConfigs(ctx.db, type).map((row) => configView(ctx, row));
  return { configurations, total: configurations.length };
}

/** @example createConfiguration(ctx, { name: 'ecology', config_type: 'sweep', parameters: { repositories: ['crossref'], query: 'ecology' } }) */
export function createConfiguration(ctx: Context, body: unknown): ConfigurationCreated {
  const parsed = parseWith(ConfigCreate, body, ['body']);
  const type = checkConfigType(parsed.config_type, ['body', 'config_type']);
  const parameters = checkConfigParameters(type, parsed.parameters, ['body', 'parameters']);
  const linkTo = parsed.link_to_execution_id;
  if (linkTo !== null && !repo.executionExists(ctx.db, linkTo)) throw notFound('execution_not_found', `No execution ${linkTo} to link the configuration to.`);
  const id = ctx.db.transaction(() => {
    const id = repo.insertConfig(ctx.db, parsed.name, type, parameters, ctx.nowIso());
    if (linkTo !== null) repo.linkExecution(ctx.db, linkTo, id);
    return id;
  })();
  return { ...configView(ctx, requireConfig(ctx, id)), linked_execution_id: linkTo };
}

export function updateConfiguration(ctx: Context, id: number, body: unknown): Configuration {
  const row = requireConfig(ctx, id);
  const parsed = parseWith(ConfigUpdate, body ?? {}, ['body']);
  const parameters = parsed.parameters ? checkConfigParameters(row.config_type, parsed.parameters, ['body', 'parameters']) : (JSON.parse(row.parameters_json) as Record<string, unknown>);
  repo.updateConfig(ctx.db, id, parsed.name ?? row.name, parameters, ctx.nowIso());
  return configView(ctx, requireConfig(ctx, id));
}

export function deleteConfiguration(ctx: Context, id: number): ConfigurationDeleted {
  requireConfig(ctx, id);
  const unlinked = repo.deleteConfig(ctx.db, id);
  return { id, deleted: true, executions_unlinked: unlinked };
}
