import * as v from 'valibot';
import { cloudBackup, cloudStatus, linkCloud, unlinkCloud } from '../../src/admin/cloud.js';
import { MAX_CREDENTIAL_LENGTH } from '../../src/credentials/store.js';
import { readValid } from '../body.js';
import { route, type RouteDef } from '../registry.js';

const LinkBody = v.object({
  url: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  password: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_CREDENTIAL_LENGTH)))),
  remote_folder: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(255)))),
});
const BackupBody = v.object({ execution_ids: v.optional(v.nullable(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(10_000))), null) });

export const cloudRoutes: RouteDef[] = [
  // The body carries a password: a refusal never echoes the input.
  route('POST', '/api/cloud/link', async (event, { ctx }) => linkCloud(ctx, await readValid(event, LinkBody, { hideInput: true }))),
  route('POST', '/api/cloud/unlink', (_event, { ctx }) => unlinkCloud(ctx)),
  route('GET', '/api/cloud/status', (_event, { ctx }) => cloudStatus(ctx)),
  route('POST', '/api/cloud/backup', async (event, { ctx }) => {
    const body = await readValid(event, v.optional(BackupBody, {}), { optional: true });
    event.res.status = 201;
    return cloudBackup(ctx, body?.execution_ids ?? null);
  }),
];
