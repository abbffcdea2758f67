/**
 * Every route the server mounts, one list per area. `svc routes` prints this
 * list, and a test proves the app mounts exactly these.
 */
import type { RouteDef } from '../registry.js';
import { authRoutes } from './auth.js';
import { credentialRoutes } from './credentials.js';
import { healthRoutes } from './health.js';
import { libraryRoutes } from './library.js';
import { onboardingRoutes } from './onboarding.js';
import { repositoryRoutes } from './repositories.js';
import { searchRoutes } from './search.js';
import { executionRoutes } from './executions.js';
import { exportRoutes } from './exports.js';
import { calendarRoutes } from './calendar.js';
import { settingsRoutes } from './settings.js';
import { routineRoutes } from './routines.js';
import { schedulerRoutes } from './scheduler.js';
import { configurationRoutes } from './configurations.js';
import { similarityRoutes } from './similarity.js';

// Wave 2 areas add their import above and their list after their own marker below
// (one marker per area keeps parallel work from touching the same lines).
export const ROUTES: RouteDef[] = [
  ...healthRoutes,
  ...onboardingRoutes,
  ...authRoutes,
  ...settingsRoutes,
  ...credentialRoutes,
  ...repositoryRoutes,
  ...searchRoutes,
  ...executionRoutes,
  ...exportRoutes,
  ...calendarRoutes,
  ...routineRoutes,
  ...schedulerRoutes,
  ...configurationRoutes,
  ...libraryRoutes,
  // area: delivery
  // area: explorer
  // area: analytics
  // area: profiles
  // area: similarity
  ...similarityRoutes,
  // area: admin
  // area: evidence
  // area: answers
  // area: assistant
];
