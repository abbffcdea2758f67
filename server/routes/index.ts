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
import { profileRoutes } from './profiles.js';
import { assistantRoutes } from './assistant.js';
import { analyticsRoutes } from './analytics.js';
import { lifecycleRoutes } from './lifecycle.js';
import { backupRoutes, eraseRoutes } from './admin.js';
import { serviceRoutes } from './service.js';
import { cloudRoutes } from './cloud.js';
import { deliveryRoutes } from './delivery.js';
import { evidenceRoutes } from './evidence.js';
import { explorerRoutes } from './explorer.js';
import { readingQueueRoutes } from './reading-queue.js';
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
  ...deliveryRoutes,
  // area: explorer
  ...explorerRoutes,
  ...readingQueueRoutes,
  // area: analytics
  ...analyticsRoutes,
  ...lifecycleRoutes,
  // area: profiles
  ...profileRoutes,
  // area: similarity
  ...similarityRoutes,
  // area: admin
  ...backupRoutes,
  ...eraseRoutes,
  ...serviceRoutes,
  ...cloudRoutes,
  // area: evidence
  ...evidenceRoutes,
  // area: answers
  // area: assistant
  ...assistantRoutes,
];
