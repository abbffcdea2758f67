/**
 * A restore never loses the current data: an undo folder left by an earlier
 * restore at the same second is never taken for this restore's own, and two
 * stagings at once cannot mix their files.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { stageRestore } from '../src/admin/restore/stage.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { installationWithBundle, restart, type Installation } from './_admin.js';

let inst: Installation;
let bundle: string;
test.before(async () => {
  ({ inst, bundle } = await installationWithBundle());
});
test.after(() => inst.close());

test('two stagings at once: one is staged, the other refused (409), and the staged one is whole', async () => {
  const { t } = inst;
  const body = { path: bundle, confirm: 'restore', vault_parent: inst.parent };
  const answers = await Promise.all([t.request('POST', '/api/restore', { body }), t.request('POST', '/api/restore', { body })]);
  const statuses = answers.map((a) => a.status).sort();
  assert.equal(statuses, [202, 409], answers.map((a) => a.text).join('\n'));
  const refused = answers.find((a) => a.status === 409)!;
  assert.ok(['restore_in_progress', 'restore_already_staged'].includes(refused.json().detail.reason), refused.text);
  const staged = path.join(t.dirs.dataDir, 'restore-staged', 'database', 'svc.db');
  const db = new Sqlite(staged, { readonly: true });
  assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
  assert.is((await t.request('POST', '/api/restore/cancel')).status, 200);
  assert.not.ok(fs.readdirSync(inst.parent).some((n) => n.startsWith('.svc-restore-')), 'no staged vault left');
});

test('an undo folder of an earlier restore at the same second is not taken for this one: the current database is set aside, never lost', async () => {
  const { t } = inst;
  // Work done after the backup: only the current database holds it.
  const made = await t.request('POST', '/api/configurations', { body: { name: 'made after the backup', config_type: 'dive', parameters: { repository: 'arxiv', query: 'late' } } });
  assert.is(made.status, 201, made.text);
  const fixed = new Date('2030-01-01T00:00:00.000Z');
  const stamp = '20300101T000000Z';
  // An earlier restore staged at the same second left its undo copy.
  const earlier = path.join(t.dirs.dataDir, 'restore-undo', stamp);
  fs.mkdirSync(earlier, { recursive: true });
  fs.writeFileSync(path.join(earlier, 'svc.db'), 'the database an earlier restore set aside');
  const ctx = createContext({ env: t.dirs.env, clock: { now: () => fixed }, log: createLogger({ level: 'warn', sink: () => {} }) });
  try {
    const staged = await stageRestore(ctx, { path: bundle, confirm: 'restore', vault_parent: inst.parent, accept_fk_violations: false });
    
  } finally {
    await ctx.close();
  }
  const next = await restart(t);
  try {
    assert.is(next.ctx.db.prepare("SELECT COUNT(*) FROM saved_configurations WHERE name = 'made after the backup'").pluck().get(), 0, 'the restored database is in place');
    assert.is(fs.readFileSync(path.join(earlier, 'svc.db'), 'utf8'), 'the database an earlier restore set aside', 'the earlier undo copy is untouched');
    const holders = fs.readdirSync(path.join(t.dirs.dataDir, 'restore-undo')).filter((s) => {
      const file = path.join(t.dirs.dataDir, 'restore-undo', s, 'svc.db');
      try {
        const db = new Sqlite(file, { readonly: true, fileMustExist: true });
        try {
          return db.prepare("SELECT COUNT(*) FROM saved_configurations WHERE name = 'made after the backup'").pluck().get() === 1;
        } finally {
          db.close();
        }
      } catch {
        return false;
      }
    });
    assert.equal(holders.length, 1, 'the database current before the restore is kept as an undo copy');
  } finally {
    await next.server.close();
    inst.t.server.close = async () => {};
  }
});

test.run();
