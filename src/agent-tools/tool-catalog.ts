/**
 * The tools svc offers agents, as contract v2.3 lists them: 25 names, 18 that
 * read and 7 that write. Declared here, on neutral ground, because two rooms
 * need the list without needing each other: the MCP door (src/mcp/tools/)
 * gives each name its arguments and handler and advertises a write as
 * requires_confirmation, and the assistant's runner allows the reads to its
 * agent CLI up front. No tool deletes anything.
 */
export const TOOL_CATALOG = {
  health: 'read',
  search_corpus: 'read',
  find_similar: 'read',
  list_sources: 'read',
  list_routines: 'read',
  get_routine: 'read',
  list_executions: 'read',
  get_execution: 'read',
  get_execution_results: 'read',
  get_search_record: 'read',
  explain_match: 'read',
  get_paper_lifecycle: 'read',
  get_analytics: 'read',
  get_watchdog_findings: 'read',
  export_references: 'read',
  list_watch_profiles: 'read',
  get_watch_profile: 'read',
  get_profile_matches: 'read',
  run_sweep: 'write',
  create_routine: 'write',
  create_watch_profile: 'write',
  run_routine: 'write',
  activate_routine: 'write',
  deactivate_routine: 'write',
  update_settings: 'write',
} as const satisfies Record<string, 'read' | 'write'>;

export type ToolName = keyof typeof TOOL_CATALOG;

export const isWriteTool = (name: ToolName): boolean => TOOL_CATALOG[name] === 'write';

/** The tools that only read, in the catalogue's order. */
export const READ_TOOLS: readonly ToolName[] = (Object.keys(TOOL_CATALOG) as ToolName[]).filter((name) => !isWriteTool(name));
