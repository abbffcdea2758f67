import * as v from 'valibot';
import { daemonStatus } from '../../src/daemon/status.js';
import { installService, serviceStatus, uninstallService } from '../../src/daemon/unit.js';
import { readValid } from '../body.js';
import { route, type RouteDef } from '../registry.js';

const InstallBody = v.object({
  port: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))), null),
  register: v.optional(v.boolean(), false),
});
const UninstallBody = v.object({ deregister: v.optional(v.boolean(), false) });

export const serviceRoutes: RouteDef[] = [
  route('GET', '/api/service/daemon-status', (_event, { ctx }) => daemonStatus(ctx)),
  route('GET', '/api/service/status', (_event, { ctx }) => serviceStatus(ctx)),
  route('POST', '/api/service/install', async (event, { ctx }) => {
    const body = await readValid(event, v.optional(InstallBody, {}), { optional: true });
    return installService(ctx, { port: body?.port ?? null, register: body?.register ?? false });
  }),
  route('POST', '/api/service/uninstall', async (event, { ctx }) => {
    const body = await readValid(event, v.optional(UninstallBody, {}), { optional: true });
    return uninstallService(ctx, { deregister: body?.deregister ?? false });
  }),
];
