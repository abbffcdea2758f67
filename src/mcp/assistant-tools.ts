/**
 * The assistant's tools (issue 18, item 7): the read tools of the MCP surface,
 * the same functions over the same HTTP backend, offered to the API lanes.
 * Only reads: a write needs a person's confirmation, which a chat turn does
 * not ask for, so the assistant suggests writes and the person runs them.
 */
import type { ToolBox } from '../assistant/runner.js';
import { jsonSchemaOf } from './args.js';
import type { Backend } from './backend.js';
import { callTool } from './call.js';
import { TOOLS } from './tools/index.js';

export function assistantToolBox(backend: Backend): ToolBox {
  const reads = TOOLS.filter((t) => !t.write);
  return {
    specs: reads.map((t) => ({ name: t.name, description: t.description, inputSchema: jsonSchemaOf(t.args) })),
    async run(call) {
      if (!reads.some((t) => t.name === call.name)) return { output: { error: 'invalid_argument', message: `The assistant has no tool "${call.name.slice(0, 64)}".`, detail: {} }, isError: true };
      const result = await callTool(backend, call.name, call.input);
      return { output: result.structuredContent, isError: result.isError === true };
    },
  };
}
