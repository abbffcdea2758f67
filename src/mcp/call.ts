/**
 * Calling one tool by name: arguments checked against its declaration, the
 * handler run over the backend, and the answer or {error, message, detail}
 * as an MCP tool result. Shared by the stdio server and the assistant, with
 * no SDK import, so the server process can offer the tools cheaply.
 */
import { checkArgs } from './args.js';
import type { Backend } from './backend.js';
import { McpToolError, renamedFields } from './errors.js';
import { TOOLS } from './tools/index.js';

export const CONTRACT_VERSION = '2.3';

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
    if (err instanceof McpToolError) return result(renamedFields(err, tool?.fields).toJSON(), true);
    // Never a stack: one sentence and the class name.
    return result(new McpToolError('internal_error', `The ${name.slice(0, 64)} tool failed unexpectedly (${err instanceof Error ? err.name : 'error'}).`).toJSON(), true);
  }
}

