import type { Migration } from '../migration.js';

/** As settings/check.ts HOST: a host name, an IPv4 address, or an IPv6 address (bare or in brackets). */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?|\[?(?=[^\]]*:[^\]]*:)[0-9A-Fa-f:.]+\]?)$/;

/** "smtps://user:pass@mail.example.org:465/" → "mail.example.org" (scheme, userinfo, port and path dropped). */
function hostOf(value: string): string {
  const rest = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^/?#]*@/, '');
  const host = rest.split(/[/?#]/)[0]!;
  return host.startsWith('[') ? host.replace(/^(\[[^\]]*\]).*$/, '$1') : host.replace(/:\d*$/, '');
}

/**
 * email.smtp_host written before svc took a host name only (f4f7e0a) may hold
 * "user:password@host" or a URL; reads already treat it as unset, but the row
 * itself would still go into every backup. The stored value keeps its host
 * when one can be read out of it, and is removed otherwise. A new database
 * has no such row, so this step changes nothing there.
 */
export const settingsSmtpHost: Migration = {
  version: 22,
  name: 'settings-smtp-host',
  creates: [],
  up(db) {
    const stored = db.prepare("SELECT value_json FROM settings WHERE group_name = 'email' AND key = 'smtp_host'").pluck().get() as string | undefined;
    if (stored === undefined) return;
    let value: unknown;
    try {
      value = JSON.parse(stored);
    } catch {
      value = null;
    }
    if (typeof value === 'string' && (value === '' || HOST.test(value))) return;
    const host = typeof value === 'string' ? hostOf(value) : '';
    // Overwrite the old value's bytes, not only free them: a backup copies every page, free ones too.
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
      if (host && HOST.test(host)) db.prepare("UPDATE settings SET value_json = ? WHERE group_name = 'email' AND key = 'smtp_host'").run(JSON.stringify(host));
      else db.prepare("DELETE FROM settings WHERE group_name = 'email' AND key = 'smtp_host'").run();
    } finally {
      db.pragma(`secure_delete = ${secureDelete ? 'ON' : 'OFF'}`);
    }
  },
};
