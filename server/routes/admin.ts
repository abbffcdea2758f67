import * as v from 'valibot';
import { backupView, createBackup, verifyBackup } from '../../src/admin/backup.js';
import { ERASE_SCOPES, eraseScope, eraseScopesView } from '../../src/admin/erase.js';
import { lastBackup } from '../../src/admin/repo.js';
import { cancelRestore, RESTORE_CONFIRM, stageRestore } from '../../src/admin/restore/stage.js';
import { acknowledgeRestore, restoreStatus } from '../../src/admin/restore/status.js';
import { deleteUndoCopies, UNDO_DELETE_CONFIRM } from '../../src/admin/restore/undo.js';
import type { BackupState, EraseScopeList } from '../../src/wire/admin.js';
import { readValid } from '../body.js';
import { route, type RouteDef } from '../registry.js';

const ConfirmBody = v.object({ confirm: v.optional(v.pipe(v.string(), v.maxLength(64)), '') });
const BackupBody = v.object({ confirm: v.optional(v.pipe(v.string(), v.maxLength(64)), ''), include_reports: v.optional(v.boolean(), true) });
const BundleBody = v.object({ path: v.optional(v.pipe(v.string(), v.maxLength(4096)), '') });
const RestoreBody = v.object({
  accept_fk_violations: v.optional(v.boolean(), false),
  confirm: v.pipe(v.string(), v.maxLength(64)),
  path: v.pipe(v.string(), v.maxLength(4096)),
  vault_parent: v.pipe(v.string(), v.maxLength(4096)),
});
const optional = { optional: true } as const;

export const backupRoutes: RouteDef[] = [
  route('POST', '/api/backup', async (event, { ctx }) => {
    const body = (await readValid(event, v.optional(BackupBody, {}), optional)) ?? { include_reports: true };
    event.res.status = 201;
    return createBackup(ctx, { includeReports: body.include_reports ?? true });
  }),
  route('GET', '/api/backup/last', (_event, { ctx }): BackupState => ({
    last_backup: backupView(lastBackup(ctx.db, 'local')),
    last_cloud_backup: backupView(lastBackup(ctx.db, 'cloud')),
    ...restoreStatus(ctx),
    // The words the confirm-gated routes below accept, so a door can ask for them (the spec leaves them to svc).
    confirm_words: { restore: RESTORE_CONFIRM, undo_copy_delete: UNDO_DELETE_CONFIRM },
  })),
  route('POST', '/api/backup/verify', async (event, { ctx }) => {
    const body = await readValid(event, v.optional(BundleBody, {}), optional);
    return verifyBackup(ctx, body?.path ?? '');
  }),
  route('POST', '/api/restore', async (event, { ctx }) => {
    const body = await readValid(event, RestoreBody);
    event.res.status = 202;
    return stageRestore(ctx, body);
  }),
  route('POST', '/api/restore/acknowledge', (_event, { ctx }) => acknowledgeRestore(ctx)),
  route('POST', '/api/restore/cancel', (_event, { ctx }) => cancelRestore(ctx)),
  route('POST', '/api/restore/undo-copy/delete', async (event, { ctx }) => {
    const body = await readValid(event, v.optional(ConfirmBody, {}), optional);
    return deleteUndoCopies(ctx, body?.confirm ?? '');
  }),
];

export const eraseRoutes: RouteDef[] = [
  // Not in the spec's table: what each scope erases and keeps, in svc's words, read before erasing.
  route('GET', '/api/admin/erase-scopes', (): EraseScopeList => ({ scopes: eraseScopesView() })),
  ...ERASE_SCOPES.map((scope) =>
    route('POST', `/api/admin/${scope}`, async (event, { ctx }) => {
      const body = await readValid(event, v.optional(ConfirmBody, {}), optional);
      return eraseScope(ctx, scope, body?.confirm ?? '');
    }),
  ),
];
