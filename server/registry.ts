/**
 * Routes are declared as data (method, spec path, handler) so the registry can
 * be listed without starting anything (`svc routes`) and compared with what the
 * app mounts and with the spec's routes.tsv.
 */
import type { H3Event } from 'h3';
import type { Context } from '../src/context.js';
import type { ServerRuntime } from './runtime.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppDeps {
  ctx: Context;
  runtime: ServerRuntime;
}

export type Handler = (event: H3Event, deps: AppDeps, params: Record<string, string>) => unknown | Promise<unknown>;

export interface RouteDef {
  method: Method;
  /** The path as the spec writes it, with {name} parameters. */
  path: string;
  handler: Handler;
}

export function route(method: Method, path: string, handler: Handler): RouteDef {
  return { method, path, handler };
}

/** `/api/executions/{exec_id}` → `/api/executions/:exec_id` for the h3 router. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}

/** A matcher for a spec path; parameters match one non-empty segment. */
export function pathMatcher(path: string): RegExp {
  const source = path
    .split(/(\{[a-z_]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
