/**
 * The MCP server object, apart from its transport: tool listing (every tool
 * declares requires_confirmation, false for reads and true for writes, at the
 * top level and in _meta, which SDK clients keep) and tool calls, each
 * answering its success shape or {error, message, detail}. The contract
 * version travels in the initialization response.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { svcVersion } from '../version.js';
import { jsonSchemaOf } from './args.js';
import type { Backend } from './backend.js';
import { callTool, CONTRACT_VERSION } from './call.js';
import { TOOLS } from './tools/index.js';

export { CONTRACT_VERSION };

/** Said in a write's description too: many harnesses show the model the description and not _meta. */
export const CONFIRM_NOTE = 'This changes svc (requires_confirmation): ask the person before calling it.';

function toolListing() {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.write ? `${t.description} ${CONFIRM_NOTE}` : t.description,
    inputSchema: jsonSchemaOf(t.args),
    annotations: { title: t.title, readOnlyHint: !t.write, destructiveHint: false, idempotentHint: !t.write || t.idempotent === true, openWorldHint: t.openWorld === true },
    requires_confirmation: t.write,
    _meta: { requires_confirmation: t.write, contract_version: CONTRACT_VERSION },
  }));
}

export function createMcpServer(backend: Backend): Server {
  const server = new Server(
    { name: 'svc', title: 'svc research-paper collector', version: svcVersion() },
    {
      capabilities: { tools: { listChanged: false }, experimental: { svc: { contract_version: CONTRACT_VERSION } } },
      instructions: `svc tool contract v${CONTRACT_VERSION}. Read tools answer from the local svc service; write tools (requires_confirmation true) change it and should be confirmed by the user. No tool deletes anything or handles credential values.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolListing() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(backend, request.params.name, request.params.arguments ?? {}));
  return server;
}
