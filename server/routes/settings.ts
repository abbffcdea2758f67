import * as v from 'valibot';
import { describeKeys } from '../../src/settings/describe.js';
import { GENERIC_GROUPS, settingDef, type SettingsGroup } from '../../src/settings/schema.js';
import { readValid } from '../body.js';
import { JsonObject } from '../../src/util/validate.js';
import type { ExecutionSettings, GroupAnswer, GroupWritten, SettingsValues } from '../../src/wire/settings.js';
import { route, type RouteDef } from '../registry.js';

const GenericBody = v.object({ settings: JsonObject });

// Keys beyond the two reach the store, which refuses them (the spec ignores extra keys only in the generic groups).
const ExecutionBody = v.objectWithRest(
  {
    max_concurrent_executions: v.pipe(v.number(), v.integer()),
    routine_fire_queue_limit: v.pipe(v.number(), v.integer()),
  },
  v.unknown(),
);

function groupRoutes(group: SettingsGroup): RouteDef[] {
  return [
    route('GET', `/api/settings/${group}`, (_event, { ctx }): GroupAnswer => ({ group, settings: ctx.settings.read(group), keys: describeKeys(group) })),
    route('PUT', `/api/settings/${group}`, async (event, { ctx }): Promise<GroupWritten> => {
      const body = await readValid(event, GenericBody);
      // The spec has this PUT ignore keys outside the group; the answer names them, so a misspelt key is seen, not lost.
      const known = Object.entries(body.settings).filter(([key]) => settingDef(group, key));
      const ignored = Object.keys(body.settings).filter((key) => !settingDef(group, key)).map((key) => key.slice(0, 64));
      return { group, settings: ctx.settings.write(group, Object.fromEntries(known)), keys: describeKeys(group), ignored_keys: ignored };
    }),
  ];
}

/** The execution group's two values are integers (settings/schema.ts); the store types every group's values alike. */
function executionAnswer(values: SettingsValues): ExecutionSettings {
  return { max_concurrent_executions: Number(values.max_concurrent_executions), routine_fire_queue_limit: Number(values.routine_fire_queue_limit), keys: describeKeys('execution') };
}

export const settingsRoutes: RouteDef[] = [
  ...GENERIC_GROUPS.flatMap(groupRoutes),
  // The two values stay at the top level (the spec's body shape); `keys` describes them.
  route('GET', '/api/settings/execution', (_event, { ctx }) => executionAnswer(ctx.settings.read('execution'))),
  route('PUT', '/api/settings/execution', async (event, { ctx }) => {
    const body = await readValid(event, ExecutionBody);
    return executionAnswer(ctx.settings.write('execution', body, ['body']));
  }),
];
