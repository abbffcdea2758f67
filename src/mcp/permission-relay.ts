/**
 * The permission relay: an internal MCP server (`svc mcp --permission-relay`,
 * not the public tool surface of contract v2.3) with exactly one tool, which
 * the agent CLI calls as its --permission-prompt-tool. Each call is opened as
 * POST /api/assistant/permissions for the conversation named by the
 * environment and held until the person answers allow or deny; the answer
 * goes back to the agent as the JSON text it expects:
 * {"behavior":"allow","updatedInput":{…}} or {"behavior":"deny","message":"…"}.
 * Anything but an answer (no service, a refusal, the agent going away)
 * denies: a tool call is never allowed by default.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { svcVersion } from '../version.js';
import type { Backend } from './backend.js';
import { McpToolError } from './errors.js';

import { RELAY_SERVER, RELAY_SESSION_ENV, RELAY_TOOL } from '../agent-tools/relay-names.js';

export { RELAY_PROMPT_TOOL, RELAY_SERVER, RELAY_SESSION_ENV, RELAY_TOOL } from '../agent-tools/relay-names.js';

export type Decision = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    tool_name: { type: 'string', description: 'The tool the agent wants to use' },
    input: { type: 'object', description: 'The input it wants to give the tool' },
    tool_use_id: { type: 'string', description: "The agent's id of this tool use" },
  },
  required: ['tool_name', 'input'],
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Ask the person through the backend and turn the answer into the agent's decision; never throws. */
export async function relayPermission(backend: Backend, sessionId: number | undefined, args: unknown, signal?: AbortSignal): Promise<Decision> {
  const a = isObject(args) ? args : {};
  if (sessionId === undefined) return { behavior: 'deny', message: `svc's permission relay was started without a conversation (${RELAY_SESSION_ENV}); the tool call is refused.` };
  if (typeof a.tool_name !== 'string' || !a.tool_name) return { behavior: 'deny', message: 'The permission request named no tool; it is refused.' };
  const input = isObject(a.input) ? a.input : {};
  const body = { session_id: sessionId, tool_name: a.tool_name.slice(0, 200), tool_use_id: typeof a.tool_use_id === 'string' ? a.tool_use_id.slice(0, 200) : null, input };
  try {
    const answer = (await backend.call('POST', '/api/assistant/permissions', { body, held: signal ?? new AbortController().signal })).json as { allow?: unknown; reason?: unknown } | null;
    if (answer?.allow === true) return { behavior: 'allow', updatedInput: input };
    const reason = typeof answer?.reason === 'string' && answer.reason.trim() ? answer.reason : 'The person denied this tool call.';
    return { behavior: 'deny', message: reason };
  } catch (err) {
    // The backend's messages are already scrubbed of the token.
    const why = err instanceof McpToolError ? err.message : 'the request to the svc service failed';
    return { behavior: 'deny', message: `No answer could be asked for (${why}); the tool call is refused.` };
  }
}

export function createRelayServer(backend: Backend, sessionId: number | undefined): Server {
  const server = new Server(
    { name: RELAY_SERVER, title: "svc's permission relay", version: svcVersion() },
    { capabilities: { tools: { listChanged: false } }, instructions: 'Internal to svc: the agent CLI asks the person here before a tool call that is not allowed up front.' },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: RELAY_TOOL,
        title: 'Ask the person',
        description: "Asks the person in svc's conversation whether a tool call may run; answers allow (with the input) or deny (with the reason).",
        inputSchema: INPUT_SCHEMA,
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== RELAY_TOOL) {
      return { content: [{ type: 'text' as const, text: JSON.stringify({ behavior: 'deny', message: `No tool "${request.params.name.slice(0, 64)}" here.` }) }], isError: true };
    }
    const decision = await relayPermission(backend, sessionId, request.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text' as const, text: JSON.stringify(decision) }] };
  });
  return server;
}

/** The conversation id from the relay's environment, or undefined when absent or malformed. */
export function relaySessionId(env: Record<string, string | undefined>): number | undefined {
  const raw = env[RELAY_SESSION_ENV];
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
}
