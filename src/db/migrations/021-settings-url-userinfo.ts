import type { Migration } from '../migration.js';

/** The URL settings (group, key): what `url: true` marks in settings/schema.ts. */
const URL_SETTINGS: [string, string][] = [
  ['ai', 'base_url'],
  ['embeddings', 'base_url'],
  ['cloud', 'url'],
];

/** The URL without its user name and password ("https://user:pass@host/x" → "https://host/x"; "user:pass@host" → "host"). */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)@/i;

/**
 * URL settings written before svc refused a user name or password in them
 * (086c9cd) may still hold one, and every settings read, cloud status and
 * backup would answer it. The stored URL keeps everything but the userinfo;
 * a user name in the cloud URL becomes cloud.username when none is set (the
 * password belongs in the cloud_password credential, which a migration cannot
 * write: `svc cloud link` asks for it). A new database has no such row, so
 * this step changes nothing there.
 */
export const settingsUrlUserinfo: Migration = {
  version: 21,
  name: 'settings-url-userinfo',
  creates: [],
  up(db) {
    const read = db.prepare('SELECT value_json FROM settings WHERE group_name = ? AND key = ?').pluck();
    const write = db.prepare('UPDATE settings SET value_json = ? WHERE group_name = ? AND key = ?');
    const addUser = db.prepare(
      `INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('cloud', 'username', ?, (SELECT updated_at_utc FROM settings WHERE group_name = 'cloud' AND key = 'url'))
       ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json WHERE value_json = '""'`,
    );
    for (const [group, key] of URL_SETTINGS) {
      const stored = read.get(group, key) as string | undefined;
      if (stored === undefined) continue;
      let value: unknown;
      try {
        value = JSON.parse(stored);
      } catch {
        continue;
      }
      if (typeof value !== 'string') continue;
      const found = USERINFO.exec(value);
      if (!found) continue;
      write.run(JSON.stringify(value.replace(USERINFO, '$1')), group, key);
      const user = decodeURIComponentSafe(found[2]!.split(':')[0]!);
      if (group === 'cloud' && user) addUser.run(JSON.stringify(user));
    }
  },
};

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
