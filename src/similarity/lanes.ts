/**
 * A lane: the configured (or a supplied, unsaved) embedding provider as one
 * object that embeds documents and queries. Vectors are stored under the
 * lane's model key; a change of provider or model is a change of key, so
 * vectors of different models never mix.
 */
import type { Context } from '../context.js';
import { usableEndpoint } from '../settings/check.js';
import { SvcError } from '../errors.js';
import type { SettingsValues } from '../wire/settings.js';
import { embedOllama, embedOpenAI, type HttpLaneConfig } from './http-lanes.js';
import { LEXICAL_MODEL, embedLexical, emptyStats, estimateTokens, statsFromBlob, statsToBlob, type LexicalStats } from './lexical.js';
import { modelKey, providerInfo, type ProviderId } from './providers.js';
import { readStats, writeStats, type DocumentText } from './repo.js';

export interface LaneSettings {
  provider: ProviderId;
  model: string;
  base_url: string;
  batch_size: number;
}

export interface Lane {
  provider: ProviderId;
  model: string;
  /** Key the vectors are stored under: provider/model. */
  key: string;
  kind: 'lexical' | 'semantic';
  batchSize: number;
  /** Embed documents (title and abstract); the lexical lane weights them by its statistics as they stand (see countUncounted). */
  embedDocuments(docs: DocumentText[], options?: { signal?: AbortSignal }): Promise<{ vectors: Float32Array[]; tokens: number }>;
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** Keep what the lane learned (the lexical document frequencies). */
  persist(): void;
  /** The lexical lane's statistics, counted by countUncounted (lexical-fit.ts); undefined for other lanes. */
  stats?: LexicalStats;
}

export function laneSettings(values: SettingsValues): LaneSettings {
  return {
    provider: String(values.provider ?? 'none') as ProviderId,
    model: String(values.model ?? ''),
    base_url: String(values.base_url ?? ''),
    batch_size: Number(values.batch_size ?? 32),
  };
}

/** The text of a document as every lane embeds it. */
export function documentText(doc: DocumentText): string {
  return doc.abstract ? `${doc.title}\n\n${doc.abstract}` : doc.title;
}

/** The lane the settings describe, or why there is none (similarity off). */
export function resolveLane(ctx: Context, settings: LaneSettings = laneSettings(ctx.settings.read('embeddings'))): Lane | { off: string } {
  const info = providerInfo(settings.provider);
  if (!info || !info.can_embed) return { off: 'embeddings_off' };
  const model = settings.model || info.default_model!;
  const key = modelKey(info.id, model);
  if (info.id === 'local') {
    if (model !== LEXICAL_MODEL) throw new SvcError(422, 'embedding_model_unknown', `The local lane has one model, ${LEXICAL_MODEL}; "${model.slice(0, 64)}" is not it.`);
    const stored = readStats(ctx.db, key);
    const stats = stored ? statsFromBlob(stored.documents, stored.data, stored.counted_through) : emptyStats();
    // What the table holds: persist writes when the counts differ, whoever counted (a backfill
    // counts into `stats` directly, not through embedDocuments).
    let persisted = { documents: stats.documents, countedThrough: stats.countedThrough };
    return {
      provider: 'local',
      model,
      key,
      kind: 'lexical',
      batchSize: Math.max(256, settings.batch_size),
      stats,
      async embedDocuments(docs) {
        return { vectors: docs.map((d) => embedLexical(stats, d)), tokens: docs.reduce((n, d) => n + estimateTokens(documentText(d)), 0) };
      },
      async embedQuery(text) {
        return embedLexical(stats, { title: text });
      },
      persist() {
        if (stats.documents === persisted.documents && stats.countedThrough === persisted.countedThrough) return;
        writeStats(ctx.db, key, { documents: stats.documents, counted_through: stats.countedThrough, data: statsToBlob(stats) }, ctx.nowIso());
        persisted = { documents: stats.documents, countedThrough: stats.countedThrough };
      },
    };
  }
  const http: HttpLaneConfig = { provider: info.id as 'openai' | 'ollama', baseUrl: settings.base_url ? usableEndpoint('embeddings', 'base_url', settings.base_url) : info.default_base_url!, model };
  if (info.credential) {
    const secret = ctx.credentials.reveal(info.credential);
    if (secret) http.key = secret;
    else if (!settings.base_url) {
      throw new SvcError(400, 'embedding_key_missing', `The ${info.label} lane needs the ${info.credential} credential (svc credentials set ${info.credential}).`, { credential: info.credential });
    }
  }
  const call = info.id === 'openai' ? embedOpenAI : embedOllama;
  return {
    provider: info.id,
    model,
    key,
    kind: 'semantic',
    batchSize: settings.batch_size,
    embedDocuments: (docs, options = {}) => call(ctx, http, docs.map(documentText), options.signal),
    async embedQuery(text, signal) {
      return (await call(ctx, http, [text], signal)).vectors[0]!;
    },
    persist() {},
  };
}

export function isLane(value: Lane | { off: string }): value is Lane {
  return 'key' in value;
}
