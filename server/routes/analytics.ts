import type { H3Event } from 'h3';
import * as v from 'valibot';
import { keywordContribution, sourceContribution } from '../../src/analytics/contribution.js';
import { discoveryLag } from '../../src/analytics/lag.js';
import { HEALTH_RUNS, routineHealth } from '../../src/analytics/routine-health.js';
import { analyticsOverview, analyticsSummary } from '../../src/analytics/summary.js';
import { publicationVolume, VOLUME_SPLITS, VOLUME_TOP } from '../../src/analytics/volume.js';
import { parseWindow } from '../../src/analytics/window.js';
import type { Context } from '../../src/context.js';
import { MAX_KEY_LENGTH, MAX_NOTE_LENGTH, muteFinding, unmuteFinding, watchdogFindings } from '../../src/watchdog/service.js';
import { queryOf, readValid } from '../body.js';
import { boolQuery, enumQuery, intQuery } from '../params.js';
import { route } from '../registry.js';

const windowOf = (event: H3Event, ctx: Context) => parseWindow(queryOf(event).get('window'), ctx.clock.now());

/** Body of POST /api/watchdog/mute and /unmute: the finding's key (from GET /api/watchdog), and for mute an optional note. */
const MuteBody = v.object({
  key: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_KEY_LENGTH)),
  note: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(MAX_NOTE_LENGTH))), null),
});
const UnmuteBody = v.object({ key: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_KEY_LENGTH)) });

export const analyticsRoutes = [
  route('GET', '/api/analytics/overview', (event, { ctx }) => analyticsOverview(ctx, windowOf(event, ctx))),
  route('GET', '/api/analytics/summary', (event, { ctx }) => analyticsSummary(ctx, windowOf(event, ctx))),
  route('GET', '/api/analytics/publication-volume', (event, { ctx }) => {
    const q = queryOf(event);
    return publicationVolume(ctx, windowOf(event, ctx), enumQuery(q, 'split', VOLUME_SPLITS) ?? 'source', intQuery(q, 'top', VOLUME_TOP.default, VOLUME_TOP.min, VOLUME_TOP.max));
  }),
  route('GET', '/api/analytics/source-contribution', (event, { ctx }) => sourceContribution(ctx, windowOf(event, ctx))),
  route('GET', '/api/analytics/keyword-contribution', (event, { ctx }) => {
    const q = queryOf(event);
    return keywordContribution(ctx, windowOf(event, ctx), q.has('routine_id') ? intQuery(q, 'routine_id', 0, 1, Number.MAX_SAFE_INTEGER) : null);
  }),
  route('GET', '/api/analytics/routine-health', (event, { ctx }) =>
    routineHealth(ctx, windowOf(event, ctx), intQuery(queryOf(event), 'runs', HEALTH_RUNS.default, HEALTH_RUNS.min, HEALTH_RUNS.max)),
  ),
  route('GET', '/api/analytics/discovery-lag', (event, { ctx }) => discoveryLag(ctx, windowOf(event, ctx))),
  route('GET', '/api/watchdog', (event, { ctx }) => watchdogFindings(ctx, boolQuery(queryOf(event), 'include_muted'))),
  route('POST', '/api/watchdog/mute', async (event, { ctx }) => {
    const body = await readValid(event, MuteBody);
    return muteFinding(ctx, body.key, body.note);
  }),
  route('POST', '/api/watchdog/unmute', async (event, { ctx }) => unmuteFinding(ctx, (await readValid(event, UnmuteBody)).key)),
];
