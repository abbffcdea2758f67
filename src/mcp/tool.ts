/**
 * One MCP tool: its name as the contract gives it, whether it writes (writes
 * declare requires_confirmation true), its arguments and its handler over the
 * backend. Handlers answer plain JSON objects.
 */
import type { ArgSpecs } from './args.js';
import type { Backend } from './backend.js';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  write: boolean;
  args: ArgSpecs;
  run(backend: Backend, args: Record<string, any>): Promise<Record<string, unknown>>;
}

export const defineTool = (tool: ToolDef) => tool;

/** One page of a list the backend answers whole. */
export function page<T>(items: T[], limit: number, offset: number) {
  return { items: items.slice(offset, offset + limit), total: items.length, limit, offset, has_more: offset + limit < items.length };
}

export const RELEVANCE_NOTE =
  'Most sources rank by relevance rather than filter by keyword, so a paper that matches no keyword is expected in results and is not an error.';
