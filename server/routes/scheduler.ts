import { schedulerJobs } from '../../src/scheduler/views.js';
import { route } from '../registry.js';

export const schedulerRoutes = [route('GET', '/api/scheduler/jobs', (_event, { ctx, runtime }) => schedulerJobs(ctx, runtime.scheduler.state))];
