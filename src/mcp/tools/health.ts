import { EXPECTED_RUNTIME_ID } from '../args.js';
import { defineTool } from '../tool.js';

export const health = defineTool({
  name: 'health',
  title: 'Service health',
  description: 'Is the svc service up: version, schema version, scheduler and daemon state, and its runtime identity.',
  args: { expected_runtime_id: EXPECTED_RUNTIME_ID },
  run: (backend, args) => backend.get('/api/health', { expected_runtime_id: args.expected_runtime_id }),
});
