import type { Migration } from '../migration.js';

/** The URL settings (group, key): what `url: true` marks in settings/schema.ts. */
const URL_SETTINGS: [string, string][] = [
  ['ai', 'base_url'],
  ['embeddings', 'base_url'],
  ['cloud', 'url'],
];

/** A user name or password before the host: "me:pw@host", "https://me:pw@host/" (as settings/check.ts urlCarriesCredentials). */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i;

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Between migration 21 and the check that takes only http(s) URLs (6a46a78),
 * "me:pw@host" was stored in a URL setting: URL parsing read "me:" as its
 * scheme, so the check for a user name or password passed. Reads now treat
 * it as unset, but the row, password included, stayed in the settings table
 * and went into every backup. Such a value (any value that is not an http(s)
 * URL and holds an @) is removed (the setting reads as
 * unset, as it already did); an http(s) URL with a user name or password
 * keeps everything but them, as migration 21 did. Secure delete overwrites
 * the old bytes, so no free page carries the password into a backup. A new
 * database has no such row, so this step changes nothing there.
 */
export const settingsUrlPassword: Migration = {
  version: 24,
  name: 'settings-url-password',
  creates: [],
  up(db) {
    const read = db.prepare('SELECT value_json FROM settings WHERE group_name = ? AND key = ?').pluck();
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
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
        if (isHttpUrl(value)) {
          if (!USERINFO.test(value)) continue;
          const kept = value.replace(USERINFO, (_, scheme: string | undefined) => scheme ?? '');
          db.prepare('UPDATE settings SET value_json = ? WHERE group_name = ? AND key = ?').run(JSON.stringify(kept), group, key);
        } else if (value.includes('@')) {
          // Not an http(s) URL, so it reads as unset: any @ may end a password, and one holding a
          // slash, ? or # ("me:a/b@host") is not seen by USERINFO, which stops at them.
          db.prepare('DELETE FROM settings WHERE group_name = ? AND key = ?').run(group, key);
        }
      }
    } finally {
      db.pragma(`secure_delete = ${secureDelete ? 'ON' : 'OFF'}`);
    }
  },
};
