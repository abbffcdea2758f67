/**
 * What a routine's read and Review ask of a long-running routine is found by
 * index (migration 37), not by reading every run or delivery of the routine:
 * the SQL the repo functions really run (recorded from the connection) is
 * explained by SQLite, and each plan names its index with no sort step.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { deliveriesOfRoutine } from '../src/delivery/repo.js';
import { lastExecutionsOf } from '../src/routines/repo.js';
import { tempDirs } from './_setup.js';

const dirs = tempDirs();
const ctx = createContext({ env: dirs.env, log: silentLogger });
test.after(() => {
  ctx.close();
  dirs.cleanup();
});

/** The statements `read` prepares on the connection, each with SQLite's plan for it. */
function plansOf(read: (db: Database) => unknown): { sql: string; plan: string[] }[] {
  const seen: string[] = [];
  const recording = new Proxy(ctx.db, {
    get: (db, key) => (key === 'prepare' ? (sql: string) => (seen.push(sql), db.prepare(sql)) : Reflect.get(db, key, db)),
  });
  read(recording);
  // Every parameter bound to null is enough for EXPLAIN: the plan does not depend on the values here.
  return seen.map((sql) => {
    const statement = ctx.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const args = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
    return { sql, plan: (statement.all(...args) as { detail: string }[]).map((row) => row.detail) };
  });
}

test("a routine's last run is one index seek on (routine_id, started_at_utc, id), not a sort of all its runs", () => {
  const [read] = plansOf((db) => lastExecutionsOf(db, [1, 2]));
  assert.ok(read!.plan.some((step) => step.includes('executions_by_routine_start')), read!.plan.join(' | '));
  assert.not.ok(read!.plan.some((step) => step.includes('TEMP B-TREE')), read!.plan.join(' | '));
});

test("a routine's deliveries in one state are counted and paged on (routine_id, state, id)", () => {
  const reads = plansOf((db) => deliveriesOfRoutine(db, 1, 'awaiting_review', 200, 0));
  assert.is(reads.length, 2, 'the count and the page');
  for (const { sql, plan } of reads) {
    assert.ok(plan.some((step) => step.includes('deliveries_by_routine_state (routine_id=? AND state=?)')), `${sql}: ${plan.join(' | ')}`);
    assert.not.ok(plan.some((step) => step.includes('TEMP B-TREE')), `${sql}: ${plan.join(' | ')}`);
  }
});

test.run();
