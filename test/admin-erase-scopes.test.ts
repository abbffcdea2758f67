/**
 * Each erase scope against the spec's keep/erase lists, over an installation
 * with data of every kind (every table category, every credential kind):
 * every table of an erased category is empty afterwards, every table of a
 * kept category is row-for-row unchanged (but for the documented cascades),
 * and each credential kind is kept or gone as its scope says.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listTables } from '../src/admin/repo.js';
import { TABLE_CATEGORIES } from '../src/admin/tables.js';
import type { TableCategory } from '../src/wire/admin.js';
import { ERASE_SCOPES } from '../src/admin/erase.js';
import { seededInstallation, tableFingerprint, type Installation } from './_admin.js';

type Kind = 'ai' | 'repository' | 'email' | 'cloud';
const KEYS: Record<Kind, string> = { ai: 'openai_api_key', repository: 'core_api_key', email: 'smtp_password', cloud: 'cloud_password' };
const ALL_KEYS: Kind[] = ['ai', 'repository', 'email', 'cloud'];
const ERASABLE: TableCategory[] = ['app_state', 'settings', 'configs', 'executions', 'corpus', 'library', 'conversations'];

/**
 * From the spec (1-core-interface.md, admin routes): corpus erases only the corpus and keeps
 * executions, configs and keys; execution-data erases configs and executions and keeps settings
 * and keys; app-data erases corpus, configs, executions and every key; reset-settings resets
 * settings and erases keys, keeps configs and executions; factory-reset erases every secret,
 * config, execution, setting and paper. Conversations (document 3) go with app data; the
 * Library's records and the first-run card go only with a factory reset.
 */
const SPEC: Record<string, { erases: TableCategory[]; keys: Kind[] }> = {
  'erase-ai-keys': { erases: [], keys: ['ai'] },
  'erase-repo-keys': { erases: [], keys: ['repository'] },
  'erase-configs': { erases: ['configs'], keys: [] },
  'erase-executions': { erases: ['executions'], keys: [] },
  'erase-execution-data': { erases: ['configs', 'executions'], keys: [] },
  'erase-corpus': { erases: ['corpus'], keys: [] },
  'erase-app-data': { erases: ['corpus', 'configs', 'executions', 'conversations'], keys: ALL_KEYS },
  'reset-settings': { erases: ['settings'], keys: ALL_KEYS },
  'factory-reset': { erases: ERASABLE, keys: ALL_KEYS },
};

/** Rows a kept table may lose or see changed only through its foreign keys to an erased one. */
const CASCADES: Record<string, string[]> = {
  corpus: ['execution_documents', 'library_paper_links'], // result lists empty; Library file-to-paper links
  configs: ['deliveries', 'profile_matches'], // routine_id/target_id set null; matches of erased profiles
};

/** Something in every table category and every credential kind. */
async function seedEverything(inst: Installation): Promise<void> {
  const { t } = inst;
  const db = t.ctx.db;
  const now = new Date().toISOString();
  const routineId = db.prepare('SELECT id FROM routines LIMIT 1').pluck().get() as number;
  const docId = db.prepare('SELECT id FROM documents ORDER BY id LIMIT 1').pluck().get() as number;
  const target = db.prepare("INSERT INTO delivery_targets (routine_id, channel, target, secret, created_at_utc, updated_at_utc) VALUES (?, 'webhook', 'http://127.0.0.1:9/hook', 'whsec-test', ?, ?)").run(routineId, now, now).lastInsertRowid;
  db.prepare("INSERT INTO deliveries (routine_id, execution_id, target_id, channel, mode, state, created_at_utc, updated_at_utc) VALUES (?, ?, ?, 'webhook', 'automatic', 'delivered', ?, ?)").run(routineId, inst.executionId, target, now, now);
  db.prepare("INSERT INTO watch_profiles (kind, name, created_at_utc, updated_at_utc) VALUES ('person', 'Ada Lovelace', ?, ?)").run(now, now);
  db.prepare("INSERT INTO watchdog_mutes (finding_key, note, muted_at_utc) VALUES ('source:arxiv', 'noisy', ?)").run(now);
  db.prepare("INSERT INTO reading_queue (document_id, saved_at_utc, updated_at_utc) VALUES (?, ?, ?)").run(docId, now, now);
  const session = db.prepare("INSERT INTO assistant_sessions (title, created_at_utc, updated_at_utc) VALUES ('reef papers', ?, ?)").run(now, now).lastInsertRowid;
  db.prepare("INSERT INTO assistant_messages (session_id, role, content, created_at_utc) VALUES (?, 'user', 'which reef papers?', ?)").run(session, now);
  t.ctx.credentials.set(KEYS.cloud, 'cloud-test-password');
}

const nonEmpty = (db: Installation['t']['ctx']['db'], table: string) => (db.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() as number) > 0;

test('the expectations cover every scope', () => {
  assert.equal(Object.keys(SPEC).sort(), [...ERASE_SCOPES].sort());
});

for (const scope of ERASE_SCOPES) {
  test(`${scope}: erases exactly the spec's list and keeps every other table and key`, async () => {
    const inst = await seededInstallation();
    try {
      await seedEverything(inst);
      const { t } = inst;
      const db = t.ctx.db;
      const tables = listTables(db).filter((x) => !x.externalContent);
      for (const cat of ERASABLE) assert.ok(tables.some((x) => TABLE_CATEGORIES[x.name] === cat && nonEmpty(db, x.name)), `seeded something of category ${cat}`);
      for (const kind of ALL_KEYS) assert.is(t.ctx.credentials.status(KEYS[kind]), 'present', `seeded the ${kind} key`);
      const before = tableFingerprint(db, []);

      const r = await t.request('POST', `/api/admin/${scope}`, { body: { confirm: scope } });
      assert.is(r.status, 200, r.text);
      const spec = SPEC[scope]!;
      const after = tableFingerprint(db, []);
      const allowed = new Set(spec.erases.flatMap((c) => CASCADES[c] ?? []));
      for (const x of tables) {
        const cat = TABLE_CATEGORIES[x.name]!;
        if (spec.erases.includes(cat)) {
          assert.is(after[x.name]!.length, 0, `${scope} erases ${x.name} (${cat})`);
        } else if (allowed.has(x.name)) {
          assert.ok(after[x.name]!.length <= before[x.name]!.length, `${x.name} only loses rows through its foreign keys`);
        } else {
          assert.equal(after[x.name], before[x.name], `${scope} keeps ${x.name} (${cat}) unchanged`);
        }
      }
      for (const kind of ALL_KEYS) {
        assert.is(t.ctx.credentials.status(KEYS[kind]), spec.keys.includes(kind) ? 'absent' : 'present', `${scope}: the ${kind} key`);
      }
      assert.is((db.pragma('foreign_key_check') as unknown[]).length, 0);
      assert.is(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      await inst.close();
    }
  });
}

test.run();
