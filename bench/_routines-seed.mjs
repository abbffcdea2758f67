// A full routines store, shared by the benches that time the routine list and
// the window's part-2 pages: ROUTINES routines on four kinds of schedule, each
// with a folder target and RUNS_PER_ROUTINE completed runs of one delivery
// each, in settled states and awaiting review (queued ones would be delivered
// at a backend's start, which is not what these benches measure).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { createRoutine } = await dist('src/routines/service.js');
const { insertExecution } = await dist('src/executions/repo.js');
const { insertTarget, insertDelivery } = await dist('src/delivery/repo.js');

export const ROUTINES = 200;
export const RUNS_PER_ROUTINE = 50;
const SCHEDULES = ['0 6 * * *', 'CRON_TZ=Europe/Berlin 0 8 * * 1', '*/30 * * * *', '0 9 1 * *'];
const STATES = ['delivered', 'delivered', 'delivered', 'failed', 'awaiting_review', 'skipped', 'delivered'];

/** Seeds `ctx`'s database; answers how long it took and how many deliveries it holds. */
export function seedRoutines(ctx) {
  const t0 = Date.now();
  const now = new Date().toISOString();
  ctx.db.transaction(() => {
    for (let r = 0; r < ROUTINES; r++) {
      const { id } = createRoutine(ctx, { name: `routine ${r}`, schedule_cron: SCHEDULES[r % SCHEDULES.length], parameters: { repositories: ['arxiv', 'crossref'], query: `topic ${r}`, window_days: 7 }, intent: `papers about topic ${r}` });
      const target = insertTarget(ctx.db, { routineId: id, channel: 'folder', enabled: true, mode: r % 3 === 0 ? 'review' : 'automatic', target: `/tmp/svc-bench/${r}`, secret: null }, now);
      for (let n = 0; n < RUNS_PER_ROUTINE; n++) {
        const started = new Date(Date.now() - (RUNS_PER_ROUTINE - n) * 86_400_000).toISOString();
        const spec = { type: 'routine', repositories: ['arxiv', 'crossref'], query: `topic ${r}`, keywords: [], dateFrom: null, dateTo: null, maxResults: 100, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: id, author: null };
        const exec = insertExecution(ctx.db, spec, { pid: 1, runtimeId: '00000000-0000-4000-8000-000000000000', role: 'daemon' }, started, null, null);
        ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = ?, result_count = ?, new_count = ? WHERE id = ?`).run(started, 20 + (n % 7), n % 5, exec);
        insertDelivery(ctx.db, { routineId: id, executionId: exec, targetId: target, origin: 'target', channel: 'folder', mode: 'automatic', state: STATES[(r + n) % STATES.length] }, started);
      }
    }
  })();
  const deliveries = ctx.db.prepare('SELECT count(*) AS n FROM deliveries').get().n;
  return { ms: Date.now() - t0, deliveries };
}
