import { executionManager } from '../../src/executions/manager.js';
import { parseDive, parseSweep } from '../../src/executions/request.js';
import { readJson } from '../body.js';
import { route } from '../registry.js';

export const searchRoutes = [
  route('POST', '/api/search/dive', async (event, { ctx }) => {
    const submitted = executionManager(ctx).submit(parseDive(await readJson(event)));
    event.res.status = submitted.replayed ? 200 : 202;
    return submitted;
  }),
  route('POST', '/api/search/sweep', async (event, { ctx }) => {
    const submitted = executionManager(ctx).submit(parseSweep(await readJson(event)));
    event.res.status = submitted.replayed ? 200 : 202;
    return submitted;
  }),
];
