/**
 * The permission relay's names, apart from its server (src/mcp/permission-relay.ts)
 * so that the assistant's runner, which only passes them to the agent CLI,
 * imports no door and does not load the MCP SDK into every `svc serve` at start.
 */

/** The relay's name in the agent's MCP configuration and its one tool: the agent calls mcp__svc_permission__ask_person. */
export const RELAY_SERVER = 'svc_permission';
export const RELAY_TOOL = 'ask_person';
export const RELAY_PROMPT_TOOL = `mcp__${RELAY_SERVER}__${RELAY_TOOL}`;
/** Where the relay finds its conversation (the environment, never argv). */
export const RELAY_SESSION_ENV = 'SVC_ASSISTANT_SESSION_ID';
