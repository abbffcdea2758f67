import * as v from 'valibot';
import { describeKeys } from '../../src/settings/describe.js';
import { GENERIC_GROUPS, type SettingsGroup } from '../../src/settings/schema.js';
import { readValid } from '../body.js';
import { JsonObject } from '../../src/util/validate.js';
import { route, type RouteDef } from '../registry.js';

const GenericBody = v.object({ settings: JsonObject });

const ExecutionBody = v.object({
  max_concurrent_executions: v.pipe(v.number(), v.integer()),
  routine_fire_queue_limit: v.pipe(v.number(), v.integer()),
});

function groupRoutes(group: SettingsGroup): RouteDef[] {
  return [
    route('GET', `/api/settings/${group}`, (_event, { ctx }) => ({ group, settings: ctx.settings.read(group), keys: describeKeys(group) })),
    route('PUT', `/api/settings/${group}`, async (event, { ctx }) => {
      const body = await readValid(event, GenericBody);
      return { group, settings: ctx.settings.write(group, body.settings), keys: describeKeys(group) };
    }),
  ];
}

export const settingsRoutes: RouteDef[] = [
  ...GENERIC_GROUPS.flatMap(groupRoutes),
  // The two values stay at the top level (the spec's body shape); `keys` describes them.
  route('GET', '/api/settings/execution', (_event, { ctx }) => ({ ...ctx.settings.read('execution'), keys: describeKeys('execution') })),
  route('PUT', '/api/settings/execution', async (event, { ctx }) => {
    const body = await readValid(event, ExecutionBody);
    return { ...ctx.settings.write('execution', body, ['body']), keys: describeKeys('execution') };
  }),
];
