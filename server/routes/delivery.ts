import * as v from 'valibot';
import { SvcError } from '../../src/errors.js';
import { buildBundle } from '../../src/delivery/bundle.js';
import { sendTestMail } from '../../src/delivery/channels/email.js';
import { DeliveryFailure } from '../../src/delivery/failure.js';
import { DELIVERY_STATES } from '../../src/delivery/repo.js';
import { dispatchDue, executionDeliveries, releaseDelivery, requireDelivery, retryDelivery, ROUTINE_DELIVERIES_LIMIT, routineDeliveries, skipDelivery } from '../../src/delivery/service.js';
import { createTarget, deleteTarget, listTargets, updateTarget } from '../../src/delivery/targets.js';
import { parseWith } from '../../src/util/validate.js';
import { queryOf, readJson } from '../body.js';
import { enumQuery, idParam, intQuery } from '../params.js';
import { route, type RouteDef } from '../registry.js';

const routineId = (p: Record<string, string>) => idParam(p.routine_id, 'routine_id');
const targetId = (p: Record<string, string>) => idParam(p.target_id, 'target_id');
const deliveryId = (p: Record<string, string>) => idParam(p.delivery_id, 'delivery_id');

const EmailTestBody = v.nullish(v.strictObject({ to: v.nullish(v.pipe(v.string(), v.maxLength(320))) }));

export const deliveryRoutes: RouteDef[] = [
  route('GET', '/api/routines/{routine_id}/delivery-targets', (_event, { ctx }, p) => listTargets(ctx, routineId(p))),
  route('POST', '/api/routines/{routine_id}/delivery-targets', async (event, { ctx }, p) => {
    const id = routineId(p);
    const created = createTarget(ctx, id, await readJson(event));
    event.res.status = 201;
    return created;
  }),
  route('PUT', '/api/routines/{routine_id}/delivery-targets/{target_id}', async (event, { ctx }, p) =>
    updateTarget(ctx, routineId(p), targetId(p), await readJson(event)),
  ),
  route('DELETE', '/api/routines/{routine_id}/delivery-targets/{target_id}', (_event, { ctx }, p) => deleteTarget(ctx, routineId(p), targetId(p))),
  route('GET', '/api/executions/{exec_id}/deliveries', (_event, { ctx }, p) => executionDeliveries(ctx, idParam(p.exec_id, 'exec_id'))),
  route('GET', '/api/routines/{routine_id}/deliveries', (event, { ctx }, p) => {
    const q = queryOf(event);
    return routineDeliveries(ctx, routineId(p), {
      state: enumQuery(q, 'state', DELIVERY_STATES),
      limit: intQuery(q, 'limit', ROUTINE_DELIVERIES_LIMIT.default, ROUTINE_DELIVERIES_LIMIT.min, ROUTINE_DELIVERIES_LIMIT.max),
      offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
  }),
  // The guard has checked the signature (a webhook delivery's own secret) before this runs.
  route('GET', '/api/deliveries/{delivery_id}/bundle', (_event, { ctx }, p) => buildBundle(ctx, requireDelivery(ctx, deliveryId(p)))),
  route('POST', '/api/deliveries/{delivery_id}/deliver', (event, { ctx }, p) => {
    const view = releaseDelivery(ctx, deliveryId(p));
    void dispatchDue(ctx);
    event.res.status = 202;
    return view;
  }),
  route('POST', '/api/deliveries/{delivery_id}/retry', (event, { ctx }, p) => {
    const view = retryDelivery(ctx, deliveryId(p));
    void dispatchDue(ctx);
    event.res.status = 202;
    return view;
  }),
  route('POST', '/api/deliveries/{delivery_id}/skip', (_event, { ctx }, p) => skipDelivery(ctx, deliveryId(p))),
  route('POST', '/api/settings/email/test', async (event, { ctx }) => {
    const body = parseWith(EmailTestBody, await readJson(event, { optional: true }), ['body'], { hideInput: true });
    try {
      return await sendTestMail(ctx, body?.to ?? undefined);
    } catch (err) {
      if (err instanceof DeliveryFailure) throw new SvcError(err.retryable ? 502 : 409, err.retryable ? 'email_failed' : 'email_not_configured', err.message);
      throw err;
    }
  }),
];
