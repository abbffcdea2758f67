/** Listing executions with filters and paging. */
import type { Context } from '../context.js';
import { getSources, type ExecutionRow, type ExecutionStatus } from './repo.js';
import type { ExecutionType } from './request.js';
import { listRow } from './views.js';
import type { RunList } from '../wire/executions.js';

/** Page size bounds of a list, shared by the HTTP route and `svc executions list`. */
export const EXECUTION_LIST_LIMIT = { min: 1, max: 200, default: 50 } as const;

export interface ListFilters {
  status?: ExecutionStatus;
  type?: ExecutionType;
  routineId?: number;
  limit: number;
  offset: number;
}

export function listExecutions(ctx: Context, filters: ListFilters): RunList {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filters.status) (where.push('status = ?'), args.push(filters.status));
  if (filters.type) (where.push('type = ?'), args.push(filters.type));
  if (filters.routineId !== undefined) (where.push('routine_id = ?'), args.push(filters.routineId));
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = ctx.db.prepare(`SELECT count(*) FROM executions ${clause}`).pluck().get(...args) as number;
  const rows = ctx.db.prepare(`SELECT * FROM executions ${clause} ORDER BY started_at_utc DESC, id DESC LIMIT ? OFFSET ?`).all(...args, filters.limit, filters.offset) as ExecutionRow[];
  return { executions: rows.map(listRow), total, limit: filters.limit, offset: filters.offset };
}

/** The per-source account of each listed run: records found, or why none (the CLI's SOURCES column). */
export function withSourceCounts<T extends { id: number }>(ctx: Context, executions: T[]) {
  return executions.map((e) => ({
    ...e,
    sources: getSources(ctx.db, e.id).map((s) => ({ source: s.source, status: s.status, record_count: s.record_count, zero_reason: s.zero_reason })),
  }));
}
