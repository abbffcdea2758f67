/**
 * What each setting of a group is, for a door that draws a form for it (the
 * window's Settings page): its type, default, the sentence from schema.ts, and
 * the choices or range a write is checked against. Read answers carry it as
 * `keys`, so no door keeps a second copy of the schema.
 */
import type { KeyDescription } from '../wire/settings.js';
import { SETTINGS, type SettingsGroup } from './schema.js';

export function describeKeys(group: SettingsGroup): Record<string, KeyDescription> {
  return Object.fromEntries(
    Object.entries(SETTINGS[group]).map(([key, def]) => [
      key,
      { type: def.type, default: def.default, doc: def.doc, ...('oneOf' in def && def.oneOf ? { one_of: def.oneOf } : {}), ...(def.type === 'integer' ? { min: def.min, max: def.max } : {}) },
    ]),
  );
}
