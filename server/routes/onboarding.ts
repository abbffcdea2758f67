import { dismissOnboarding, readOnboarding } from '../../src/onboarding/service.js';
import { route } from '../registry.js';

export const onboardingRoutes = [
  route('GET', '/api/onboarding', (_event, { ctx }) => readOnboarding(ctx)),
  route('POST', '/api/onboarding/dismiss', (_event, { ctx }) => dismissOnboarding(ctx)),
];
