/** Constructed run histories for analytics and watchdog tests: runs with per-source outcomes and found papers. */
import type { Context } from '../src/context.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { finishSource, insertExecution, linkDocuments } from '../src/executions/repo.js';
import type { RunSpec } from '../src/executions/request.js';
import type { NormalizedRecord } from '../src/sources/types.js';

export interface SourcePart {
  docs?: number[];
  newDocs?: number[];
  zeroReason?: string;
  /** A failure with no HTTP answer at all: the kind of network failure (dns, unreachable, timeout, …). */
  network?: string;
}

export interface RunPart {
  routineId?: number | null;
  status?: 'completed' | 'failed' | 'cancelled' | 'interrupted';
  startedAt: string;
  keywords?: string[];
  sources?: Record<string, SourcePart>;
  /** Override the stored counts (routine health reads them). */
  resultCount?: number;
  newCount?: number;
}

export function addRun(ctx: Context, part: RunPart): number {
  const sources = part.sources ?? {};
  const spec: RunSpec = {
    type: part.routineId ? 'routine' : 'sweep', repositories: Object.keys(sources), query: 'q', keywords: part.keywords ?? [], dateFrom: null, dateTo: null, maxResults: 10,
    aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: part.routineId ?? null, author: null,
  };
  const id = insertExecution(ctx.db, spec, { pid: process.pid, runtimeId: ctx.runtimeId, role: 'test' }, part.startedAt, null, {});
  for (const [source, s] of Object.entries(sources)) {
    const docs = s.docs ?? [];
    linkDocuments(ctx.db, id, source, docs.map((documentId, rank) => ({ documentId, rank, isNew: (s.newDocs ?? []).includes(documentId) })));
    const zero = docs.length ? null : (s.zeroReason ?? 'answered_empty');
    const failing = zero !== null && zero !== 'answered_empty';
    const httpStatus = failing && zero === 'upstream_failure' && !s.network ? 503 : null;
    finishSource(ctx.db, id, source, {
      status: failing ? 'not_answered' : 'answered', recordCount: docs.length, newCount: (s.newDocs ?? []).length, zeroReason: zero, message: failing ? `${source}: ${s.network ? `no answer (${s.network})` : 'HTTP 503'}` : null, pages: 1,
      outcome: { evidence: { http_status: httpStatus, ...(s.network ? { network: s.network } : {}) } }, startedAt: part.startedAt, finishedAt: part.startedAt, ms: 5,
    });
  }
  const found = new Set(Object.values(sources).flatMap((s) => s.docs ?? []));
  const fresh = new Set(Object.values(sources).flatMap((s) => s.newDocs ?? []));
  ctx.db
    .prepare('UPDATE executions SET status = ?, finished_at_utc = ?, result_count = ?, new_count = ? WHERE id = ?')
    .run(part.status ?? 'completed', part.startedAt, part.resultCount ?? found.size, part.newCount ?? fresh.size, id);
  return id;
}

export function record(fields: Partial<NormalizedRecord> & Pick<NormalizedRecord, 'source' | 'nativeId' | 'title'>): NormalizedRecord {
  return { authors: [], ids: {}, categories: [], relations: [], ...fields };
}

export function store(ctx: Context, records: NormalizedRecord[]): number[] {
  return mergeRecords(ctx.db, records.map((r, rank) => ({ record: r, rank })), ctx.nowIso()).map((m) => m.documentId);
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
