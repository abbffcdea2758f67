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
import { checkArgs, jsonSchemaOf } from './args.js';
import type { Backend } from './backend.js';
import { McpToolError } from './errors.js';
import { TOOLS } from './tools/index.js';

export const CONTRACT_VERSION = '2.3';

function toolListing() {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchemaOf(t.args),
    annotations: { title: t.title, readOnlyHint: !t.write, destructiveHint: false, idempotentHint: !t.write, openWorldHint: false },
    requires_confirmation: t.write,
    _meta: { requires_confirmation: t.write, contract_version: CONTRACT_VERSION },
  }));
}

const result = (value: Record<string, unknown>, isError = false) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
});

export async function callTool(backend: Backend, name: string, rawArgs: unknown) {
  const tool = TOOLS.find((t) => t.name === name);
  try {
    if (!tool) throw new McpToolError('invalid_argument', `No tool "${name.slice(0, 64)}"; the tool listing names the ${TOOLS.length} tools.`);
    return result(await tool.run(backend, checkArgs(tool.name, tool.args, rawArgs)));
  } catch (err) {
    if (err instanceof McpToolError) return result(err.toJSON(), true);
    // Never a stack: one sentence and the class name.
    return result(new McpToolError('internal_error', `The ${name.slice(0, 64)} tool failed unexpectedly (${err instanceof Error ? err.name : 'error'}).`).toJSON(), true);
  }
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
