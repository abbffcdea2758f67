import { schedulerJobs } from '../../src/routines/jobs-view.js';
import { route } from '../registry.js';

export const schedulerRoutes = [route('GET', '/api/scheduler/jobs', (_event, { ctx, runtime }) => schedulerJobs(ctx, runtime.scheduler.state, runtime.scheduler.held_by ?? null))];
