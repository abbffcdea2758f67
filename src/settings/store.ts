/**
 * The settings store: typed defaults from schema.ts with stored values merged
 * over them. Writes refuse keys outside the group and known keys with a value
 * that does not fit, all in one 422; the generic PUT, which the spec has ignore
 * keys outside the group, drops them itself (server/routes/settings.ts).
 */
import type { Database } from 'better-sqlite3';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { SETTINGS, settingDef, type SettingsGroup } from './schema.js';
import { badHost, checkSettingValue, settingIssue, unknownKeyIssue } from './check.js';
import type { SettingsValues } from '../wire/settings.js';

export interface SettingsStore {
  read(group: SettingsGroup): SettingsValues;
  /** Store `values`, every key one of the group's, or nothing; answers the whole group after the write. */
  write(group: SettingsGroup, values: Record<string, unknown>, loc?: (string | number)[]): SettingsValues;
  /** Remove every stored value (reset to defaults). */
  reset(): void;
}

export function createSettingsStore(db: () => Database, now: () => string): SettingsStore {
  const read = (group: SettingsGroup): SettingsValues => {
    const defs = SETTINGS[group];
    const values: SettingsValues = {};
    for (const [key, def] of Object.entries(defs)) values[key] = def.default;
    const rows = db().prepare('SELECT key, value_json FROM settings WHERE group_name = ?').all(group) as { key: string; value_json: string }[];
    for (const row of rows) {
      const def = settingDef(group, row.key);
      if (!def) continue;
      const value = JSON.parse(row.value_json);
      // A stored value that no longer fits (a narrowed range, a host holding a password) falls back to the default,
      // except an endpoint (schema.ts): its default is another destination, so it stays as stored and fails at use.
      if (checkSettingValue(def, value) === undefined && !badHost(def, value)) values[row.key] = value;
      else if (def.type === 'string' && def.endpoint && typeof value === 'string' && value !== '' && !value.includes('@')) values[row.key] = value;
    }
    return values;
  };

  return {
    read,
    write(group, values, loc = ['body', 'settings']) {
      const issues: ValidationIssue[] = [];
      const accepted: [string, unknown][] = [];
      for (const [key, value] of Object.entries(values)) {
        const def = settingDef(group, key);
        if (!def) {
          issues.push(unknownKeyIssue(group, key, [...loc, key]));
          continue;
        }
        const issue = settingIssue(group, def, value, [...loc, key]);
        if (issue) issues.push(issue);
        else accepted.push([key, value]);
      }
      if (issues.length) throw new ValidationError(issues);
      const upsert = db().prepare(
        `INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json, updated_at_utc = excluded.updated_at_utc`,
      );
      const at = now();
      db().transaction(() => {
        for (const [key, value] of accepted) upsert.run(group, key, JSON.stringify(value), at);
      })();
      return read(group);
    },
    reset() {
      db().prepare('DELETE FROM settings').run();
    },
  };
}
