/**
 * One MCP tool: its name as the contract gives it, whether it writes (writes
 * declare requires_confirmation true; the catalogue says which, in
 * src/agent-tools/tool-catalog.ts), its arguments and its handler over the
 * backend. Handlers answer plain JSON objects.
 */
import { isWriteTool, type ToolName } from '../agent-tools/tool-catalog.js';
import type { ArgSpecs } from './args.js';
import type { Backend } from './backend.js';

export interface ToolDef {
  name: ToolName;
  title: string;
  description: string;
  write: boolean;
  args: ArgSpecs;
  /**
   * Backend field paths (a 422's location after body or query, dotted) that
   * this tool fills from an argument of another name, e.g. parameters.repositories
   * from sources: a refusal then names the argument the agent sent.
   */
  fields?: Record<string, string>;
  /** The tool asks outside repositories (a sweep, a routine fire): MCP's openWorldHint. */
  openWorld?: boolean;
  /** A write whose repetition with the same arguments changes nothing more (MCP's idempotentHint); reads always are. */
  idempotent?: boolean;
  run(backend: Backend, args: Record<string, any>): Promise<Record<string, unknown>>;
}

/** A tool of the catalogue, which says whether it writes. */
export const defineTool = (tool: Omit<ToolDef, 'write'>): ToolDef => ({ ...tool, write: isWriteTool(tool.name) });

/**
 * Where a page sits in a list of `total` rows: has_more, the offset of the
 * next page (null on the last), and, for an offset past the end, page_note
 * saying so and where the last page starts, so an agent does not read an
 * empty page as "nothing found".
 */
export function pageInfo(total: number, limit: number, offset: number) {
  const hasMore = offset + limit < total;
  const pastEnd = offset > 0 && offset >= total;
  const lastStart = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  return {
    total,
    limit,
    offset,
    has_more: hasMore,
    next_offset: hasMore ? offset + limit : null,
    ...(pastEnd
      ? { page_note: total === 0 ? `offset ${offset} is past the end: the list is empty.` : `offset ${offset} is past the end: there are ${total} rows; with limit ${limit} the last page starts at offset ${lastStart}.` }
      : {}),
  };
}

/** One page of a list the backend answers whole. */
export function page<T>(items: T[], limit: number, offset: number) {
  return { items: items.slice(offset, offset + limit), ...pageInfo(items.length, limit, offset) };
}

export const RELEVANCE_NOTE =
  'Most sources rank by relevance rather than filter by keyword, so a paper that matches no keyword is expected in results and is not an error.';
