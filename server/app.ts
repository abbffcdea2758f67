/**
 * Builds the h3 app: the guard first, then every route of the registry, then a
 * fallback that tells an unknown path (404 route_not_found) from a known path
 * asked with another method (405). Builds only; server/listen.ts listens.
 */
import { H3, type H3Event } from 'h3';
import { SvcError } from '../src/errors.js';
import { createGuard, withCors } from './guard.js';
import { errorResponse, jsonResponse } from './errors.js';
import { pathMatcher, toRouterPath, type AppDeps, type RouteDef } from './registry.js';
import { ROUTES } from './routes/index.js';

const GUARD_ORIGIN = Symbol('svc.guard.origin');

function toResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  return jsonResponse(value ?? null);
}

export function createApp(deps: AppDeps, routes: RouteDef[] = ROUTES): H3 {
  const { ctx, runtime } = deps;
  const app = new H3({ silent: true });
  const guard = createGuard(runtime, ctx.log, ctx.clock);

  app.use(async (event, next) => {
    const decision = await guard(event);
    if (!decision.pass) return decision.response;
    (event.context as Record<symbol, unknown>)[GUARD_ORIGIN] = decision.origin;
    const result = await next();
    return withCors(toResponse(result), decision.origin);
  });

  for (const def of routes) {
    app.on(def.method, toRouterPath(def.path), async (event: H3Event) => {
      try {
        const params = (event.context.params ?? {}) as Record<string, string>;
        const decoded = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, decodeURIComponent(v)]));
        return toResponse(await def.handler(event, deps, decoded));
      } catch (err) {
        return errorResponse(err, ctx.log);
      }
    });
  }

  const matchers = routes.map((def) => ({ def, matcher: pathMatcher(def.path) }));
  app.all('/**', (event: H3Event) => {
    const path = new URL(event.req.url).pathname;
    const allowed = [...new Set(matchers.filter((m) => m.matcher.test(path)).map((m) => m.def.method))];
    if (allowed.length) {
      const err = new SvcError(405, 'method_not_allowed', `${event.req.method} is not supported here; use ${allowed.join(' or ')}.`, {}, { headers: { allow: allowed.join(', ') } });
      return errorResponse(err, ctx.log);
    }
    return errorResponse(new SvcError(404, 'route_not_found', `No route ${path}; run \`svc routes\` for the list.`), ctx.log);
  });
  return app;
}
