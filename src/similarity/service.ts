/**
 * Embeddings settings, status, estimate and probe. The settings read nests the
 * writable keys under `settings` and adds capability metadata that is not
 * writable; a write refuses a provider that cannot embed.
 */
import type { Context } from '../context.js';
import { SvcError, ValidationError } from '../errors.js';
import { settingDef } from '../settings/schema.js';
import { settingIssue } from '../settings/check.js';
import { describeKeys } from '../settings/describe.js';
import type { EmbeddingsAnswer, SettingsValues } from '../wire/settings.js';
import { backfillHolder } from './backfill.js';
import { estimateTokens } from './lexical.js';
import { isLane, laneSettings, resolveLane } from './lanes.js';
import { CANNOT_EMBED, PROVIDERS, modelKey, providerInfo } from './providers.js';
import { countDocuments, countLacking, countVectors, latestRun, vectorsByModel } from './repo.js';
import { indexStatus } from './vec-index.js';
import { loadLibrary } from './hnsw.js';
import { interruptOrphanedRuns } from './recovery.js';
import { withoutOwnerProcess } from '../claims/rows.js';

const GROUP = 'embeddings';

function capabilities(ctx: Context, values: SettingsValues): EmbeddingsAnswer['capabilities'] {
  const info = providerInfo(String(values.provider));
  const model = String(values.model) || info?.default_model || null;
  return {
    active: {
      provider: info?.id ?? 'none',
      model,
      model_key: info?.can_embed && model ? modelKey(info.id, model) : null,
      kind: info?.kind ?? null,
      semantic: info?.kind === 'semantic',
      note: info?.note ?? null,
    },
    providers: PROVIDERS.map((p) => ({
      ...p,
      credential_status: p.credential ? ctx.credentials.status(p.credential) : null,
    })),
    cannot_embed: Object.keys(CANNOT_EMBED),
    keys: describeKeys(GROUP),
  };
}

export function readEmbeddingSettings(ctx: Context): EmbeddingsAnswer {
  const values = ctx.settings.read(GROUP);
  return { group: GROUP, settings: values, keys: describeKeys(GROUP), capabilities: capabilities(ctx, values) };
}

/** Check a settings object (stored values under it): a provider that cannot embed is a 422 naming why. */
export function checkEmbeddingSettings(ctx: Context, incoming: Record<string, unknown>, loc: (string | number)[] = ['body', 'settings']): SettingsValues {
  if ('provider' in incoming && typeof incoming.provider === 'string' && !providerInfo(incoming.provider)) {
    const why = CANNOT_EMBED[incoming.provider] ?? `"${incoming.provider.slice(0, 64)}" is not an embedding provider svc knows.`;
    throw new ValidationError([
      { loc: [...loc, 'provider'], msg: `${why} Choose one of: ${PROVIDERS.map((p) => p.id).join(', ')}.`, type: 'provider_cannot_embed', input: incoming.provider, ctx: { expected: PROVIDERS.map((p) => p.id) } },
    ]);
  }
  const stored = ctx.settings.read(GROUP);
  const merged: SettingsValues = { ...stored };
  // A new provider without a model named takes that provider's default model.
  if (typeof incoming.provider === 'string' && incoming.provider !== stored.provider && !('model' in incoming)) merged.model = '';
  const issues = [];
  for (const [key, value] of Object.entries(incoming)) {
    const def = settingDef(GROUP, key);
    if (!def) continue;
    const issue = settingIssue(GROUP, def, value, [...loc, key]);
    if (issue) issues.push(issue);
    else merged[key] = value as SettingsValues[string];
  }
  if (issues.length) throw new ValidationError(issues);
  if (merged.provider === 'local' && merged.model && !PROVIDERS.find((p) => p.id === 'local')!.prices_per_million_tokens[String(merged.model)]) {
    throw new ValidationError([{ loc: [...loc, 'model'], msg: `The local lane has one model, ${providerInfo('local')!.default_model}.`, type: 'model_unknown', input: merged.model, ctx: {} }]);
  }
  return merged;
}

export function writeEmbeddingSettings(ctx: Context, incoming: Record<string, unknown>): EmbeddingsAnswer {
  const merged = checkEmbeddingSettings(ctx, incoming);
  ctx.settings.write(GROUP, { ...incoming, model: merged.model });
  return readEmbeddingSettings(ctx);
}

export async function embeddingStatus(ctx: Context) {
  const settings = laneSettings(ctx.settings.read(GROUP));
  const info = providerInfo(settings.provider);
  const model = info?.can_embed ? settings.model || info.default_model! : null;
  const key = model ? modelKey(settings.provider, model) : null;
  const total = countDocuments(ctx.db);
  const embedded = key ? countVectors(ctx.db, key) : 0;
  const lib = await loadLibrary(ctx);
  // A backfill whose process went away reads interrupted, not running.
  interruptOrphanedRuns(ctx);
  const holder = backfillHolder(ctx);
  const run = latestRun(ctx.db) ?? null;
  return {
    provider: settings.provider,
    model: key,
    kind: info?.kind ?? null,
    semantic: info?.kind === 'semantic',
    lane_note: info?.note ?? null,
    embedded,
    total,
    missing: key ? total - embedded : total,
    other_models: vectorsByModel(ctx.db).filter((m) => m.model !== key),
    run: run && { ...withoutOwnerProcess(run), running_here: run.state === 'running' && holder?.here === true && holder.run_id === run.id },
    /** The process that runs a backfill now (this one or another on the data directory), or null. */
    running_in: holder,
    index: await indexStatus(ctx, key),
    extension: { name: 'usearch', loaded: lib.loaded, version: lib.version, reason: lib.reason },
  };
}

/** What a backfill of the active model would embed, and its price where the provider has one. */
export function backfillEstimate(ctx: Context) {
  const settings = laneSettings(ctx.settings.read(GROUP));
  const info = providerInfo(settings.provider);
  if (!info?.can_embed) throw new SvcError(409, 'embeddings_off', 'Embeddings are off (provider none).');
  const model = settings.model || info.default_model!;
  const key = modelKey(info.id, model);
  const { count, chars } = countLacking(ctx.db, key);
  const tokens = Math.ceil(chars / 4);
  const price = info.prices_per_million_tokens[model];
  return {
    model: key,
    provider: info.id,
    documents: count,
    tokens,
    tokens_method: 'estimated at four characters per token',
    cost_usd: price === undefined ? null : Math.round((tokens / 1e6) * price * 1e6) / 1e6,
    cost: price === undefined ? 'unknown' : price === 0 ? 'free' : 'priced',
    price_per_million_tokens: price ?? null,
  };
}

const PROBE_TEXT = 'Protein structure prediction with deep learning';

/**
 * Embed one short string with the configured lane, or with `settings` laid
 * over it (unsaved). A lane failure is an answer (ok false, reason), not an error.
 */
export async function probeLane(ctx: Context, settings: Record<string, unknown> | null) {
  const values = settings ? checkEmbeddingSettings(ctx, settings) : ctx.settings.read(GROUP);
  const started = Date.now();
  try {
    const lane = resolveLane(ctx, laneSettings(values));
    if (!isLane(lane)) return { ok: false, provider: values.provider, model: null, reason: 'embeddings_off', message: 'Provider none cannot embed.' };
    const vector = await lane.embedQuery(PROBE_TEXT);
    return { ok: true, provider: lane.provider, model: lane.key, kind: lane.kind, dimension: vector.length, tokens: estimateTokens(PROBE_TEXT), ms: Date.now() - started, saved: settings === null };
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    return { ok: false, provider: values.provider, model: values.model || null, reason: err.reason, message: err.message, upstream_status: err.extra.upstream_status ?? null, ms: Date.now() - started };
  }
}
