/** What `svc restore status` and GET /api/restore answer: the staged restore, the last one, the undo copies. */
import type { Context } from '../../context.js';
import { acknowledgeRestores, lastRestore } from '../repo.js';
import { readPlan } from './plan.js';
import { undoCopyStatus } from './undo.js';
import type { RestoreAcknowledged, RestoreStatus } from '../../wire/admin.js';

export function acknowledgeRestore(ctx: Context): RestoreAcknowledged {
  return { acknowledged: acknowledgeRestores(ctx.db, ctx.nowIso()) };
}

export function restoreStatus(ctx: Context): RestoreStatus {
  const plan = readPlan(ctx);
  const last = lastRestore(ctx.db);
  return {
    staged: plan ? { bundle_path: plan.bundle_path, bundle_created_at_utc: plan.bundle_created_at_utc, staged_at_utc: plan.staged_at_utc, vault_target: plan.vault_target, fk_violations: plan.fk_violations, applies: 'at the next start' } : null,
    last_restore: last
      ? {
          bundle_path: last.bundle_path,
          bundle_created_at_utc: last.bundle_created_at_utc,
          applied_at_utc: last.applied_at_utc,
          vault_path: last.vault_path,
          not_restored: JSON.parse(last.not_restored_json) as string[],
          show_card: last.acknowledged_at_utc === null,
          acknowledged_at_utc: last.acknowledged_at_utc,
        }
      : null,
    undo_copy: undoCopyStatus(ctx),
  };
}
