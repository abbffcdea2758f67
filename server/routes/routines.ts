import { COVERAGE_DEFAULT_LIMIT, COVERAGE_MAX_LIMIT, routineCoverage } from '../../src/routines/coverage.js';
import { runRoutineNow } from '../../src/routines/dispatch.js';
import {
  activateRoutine,
  createRoutine,
  deactivateRoutine,
  deleteRoutine,
  getRoutineView,
  listRoutineViews,
  requireRoutine,
  updateRoutine,
} from '../../src/routines/service.js';
import { queryOf, readJson } from '../body.js';
import { boolQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';

const routineId = (p: Record<string, string>) => idParam(p.routine_id, 'routine_id');

export const routineRoutes = [
  route('GET', '/api/routines', (event, { ctx }) => listRoutineViews(ctx, boolQuery(queryOf(event), 'active_only'))),
  route('POST', '/api/routines', async (event, { ctx }) => {
    const created = createRoutine(ctx, await readJson(event));
    event.res.status = 201;
    return created;
  }),
  route('GET', '/api/routines/{routine_id}', (_event, { ctx }, p) => getRoutineView(ctx, routineId(p))),
  route('PUT', '/api/routines/{routine_id}', async (event, { ctx }, p) => {
    const id = routineId(p);
    return updateRoutine(ctx, id, await readJson(event));
  }),
  route('DELETE', '/api/routines/{routine_id}', (_event, { ctx }, p) => deleteRoutine(ctx, routineId(p))),
  route('POST', '/api/routines/{routine_id}/activate', (_event, { ctx }, p) => activateRoutine(ctx, routineId(p))),
  route('POST', '/api/routines/{routine_id}/deactivate', (_event, { ctx }, p) => deactivateRoutine(ctx, routineId(p))),
  route('POST', '/api/routines/{routine_id}/run', (event, { ctx }, p) => {
    const run = runRoutineNow(ctx, routineId(p));
    event.res.status = 202;
    return run;
  }),
  route('GET', '/api/routines/{routine_id}/coverage', (event, { ctx }, p) => {
    const row = requireRoutine(ctx, routineId(p));
    const q = queryOf(event);
    return routineCoverage(ctx, row, { limit: intQuery(q, 'limit', COVERAGE_DEFAULT_LIMIT, 1, COVERAGE_MAX_LIMIT), offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER) });
  }),
];
