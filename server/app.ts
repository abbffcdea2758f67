/**
 * Builds the h3 app: the guard first, then every route of the registry, then a
 * fallback that tells an unknown path (404 route_not_found) from a known path
 * asked with another method (405). Builds only; server/listen.ts listens.
 */
import { H3, type H3Event } from 'h3';
import { SvcError } from '../src/errors.js';
import { corsHeaders, createGuard, withCors } from './guard.js';
import { sendError } from './errors.js';
import { pathMatcher, toRouterPath, type AppDeps, type RouteDef } from './registry.js';
import { ROUTES } from './routes/index.js';

const NO_STORE_PATHS = /^\/api\/(?:library|evidence)(?:\/|$)/;

export function createApp(deps: AppDeps, routes: RouteDef[] = ROUTES): H3 {
  const { ctx, runtime } = deps;
  const app = new H3({ silent: true });
  const guard = createGuard(runtime, ctx.clock);

  app.use(async (event, next) => {
    // Spec 2: Library, Evidence and answer responses are no-store, whoever refuses them (the token guard, an unoffered method).
    if (NO_STORE_PATHS.test(event.url.pathname)) event.res.headers.set('cache-control', 'no-store');
    const decision = await guard(event);
    if (!decision.pass) {
      if ('preflight' in decision) return decision.preflight;
      if (decision.origin) for (const [k, v] of Object.entries(corsHeaders(decision.origin))) event.res.headers.set(k, v);
      return sendError(event, decision.error, ctx.log);
    }
    if (decision.origin) for (const [k, v] of Object.entries(corsHeaders(decision.origin))) event.res.headers.set(k, v);
    const result = await next();
    return result instanceof Response ? withCors(result, decision.origin) : result;
  });

  for (const def of routes) {
    const hasParams = def.path.includes('{');
    app.on(def.method, toRouterPath(def.path), async (event: H3Event) => {
      try {
        const params = hasParams ? decodeParams(event.context.params) : {};
        const value = await def.handler(event, deps, params);
        return value === undefined ? null : value;
      } catch (err) {
        return sendError(event, err, ctx.log);
      }
    });
  }

  const matchers = routes.map((def) => ({ def, matcher: pathMatcher(def.path) }));
  app.all('/**', (event: H3Event) => {
    const path = event.url.pathname;
    const allowed = [...new Set(matchers.filter((m) => m.matcher.test(path)).map((m) => m.def.method))];
    if (allowed.length) {
      const err = new SvcError(405, 'method_not_allowed', `${event.req.method} is not supported here; use ${allowed.join(' or ')}.`, {}, { headers: { allow: allowed.join(', ') } });
      return sendError(event, err, ctx.log);
    }
    return sendError(event, new SvcError(404, 'route_not_found', `No route ${path}; run \`svc routes\` for the list.`), ctx.log);
  });
  return app;
}

function decodeParams(params: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}
