import { readHealth } from '../../src/health/service.js';
import { requireExpectedRuntime } from '../expected-runtime.js';
import { route } from '../registry.js';
import type { RendererHeartbeat } from '../../src/wire/health.js';

export const healthRoutes = [
  route('GET', '/api/health', (event, { ctx, runtime }) => {
    requireExpectedRuntime(event, ctx.runtimeId);
    return readHealth(ctx, {
      role: runtime.role,
      schedulerState: runtime.scheduler.state,
      schedulerHeldBy: runtime.scheduler.held_by,
      startedAtUtc: runtime.startedAtUtc,
      rendererLastSeenAtUtc: runtime.rendererLastSeenAtUtc,
    });
  }),
  route('POST', '/api/renderer/heartbeat', (_event, { ctx, runtime }): RendererHeartbeat => {
    runtime.rendererLastSeenAtUtc = ctx.nowIso();
    return { ok: true, received_at_utc: runtime.rendererLastSeenAtUtc };
  }),
];
