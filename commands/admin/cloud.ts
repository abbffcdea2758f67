import type { Command } from 'commander';
import { checkCloudLink, cloudBackup, cloudStatus, linkCloud, requireCloudPassword, unlinkCloud } from '../../src/admin/cloud.js';
import type { Context } from '../../src/context.js';
import { checkCredentialValue } from '../../src/credentials/store.js';
import { refusalOf } from '../lib/prompt-check.js';
import { SvcError } from '../../src/errors.js';
import { bytes } from './format.js';
import { confirmDestructive, notConfirmed, promptCancelled } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { idArg, listFlag } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { onInterrupt } from '../lib/bar.js';

/**
 * The password comes from stdin or a hidden prompt, never from argv. At the prompt an empty
 * answer with no password stored is refused as typed, and asked again.
 */
async function readPassword(ctx: Context, io: Io): Promise<string | null> {
  if (io.stdinIsTTY) {
    const { password, isCancel } = await import('@clack/prompts');
    const answer = await password({
      message: 'Cloud password (or app password); empty keeps the stored one',
      mask: '•',
      validate: (value) => refusalOf(() => (value ? checkCredentialValue('cloud_password', value) : requireCloudPassword(ctx, null))),
    });
    if (isCancel(answer)) throw promptCancelled('Nothing linked.');
    return String(answer ?? '') || null;
  }
  const value = (await io.readStdin()).replace(/\r?\n$/, '');
  return value || null;
}

const statusText = (s: ReturnType<typeof cloudStatus>) =>
  s.linked
    ? [`Linked: ${s.username} at ${s.url} (folder ${s.remote_folder}); password ${s.password}`, s.last_upload ? `Last upload: ${s.last_upload.created_at_utc} → ${s.last_upload.remote_path} (${bytes(s.last_upload.byte_size)})` : 'No upload yet.'].join('\n')
    : 'No cloud account linked; link one with `svc cloud link URL --user NAME` (password on stdin or at the prompt).';

export function register(program: Command, io: Io): void {
  const cloud = program.command('cloud').description('cloud copies of backups over WebDAV (Nextcloud, ownCloud, Box, pCloud, …)');
  cloud
    .command('link')
    .description('link a WebDAV account; the password is read from stdin or a hidden prompt and stored as the cloud_password credential')
    .argument('<url>', 'WebDAV URL, e.g. https://cloud.example.org/remote.php/dav/files/me/')
    .requiredOption('--user <name>', 'account user name')
    .option('--folder <path>', 'remote folder for the bundles (default: svc)')
    .action((url: string, opts: { user: string; folder?: string }) =>
      withContext(io, async (ctx) => {
        const link = { url, username: opts.user, remote_folder: opts.folder ?? null };
        checkCloudLink(ctx, link); // a bad URL or folder is said before the password is asked for
        const s = await linkCloud(ctx, { ...link, password: await readPassword(ctx, io) });
        emit(io, s, () => statusText(s));
      }),
    );
  cloud
    .command('unlink')
    .description('forget the account and its stored password (uploaded bundles stay in the cloud)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((opts: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        if (!(await confirmDestructive(io, 'Unlink the cloud account and delete its stored password?', opts.yes))) return notConfirmed(io, { unlinked: false }, 'Nothing changed.');
        const s = unlinkCloud(ctx);
        emit(io, s, () => (s.unlinked ? 'Unlinked.' : 'No account was linked.'));
      }),
    );
  cloud.command('status').description('the linked account and the last upload').action(() =>
    withContext(io, (ctx) => {
      const s = cloudStatus(ctx);
      emit(io, s, () => statusText(s));
    }),
  );
  cloud
    .command('backup')
    .description('write a backup bundle and upload it to the linked account')
    .option('--executions <ids>', 'only the reports of these runs (comma-separated ids); default all')
    .action((opts: { executions?: string }) =>
      withContext(io, async (ctx) => {
        const ids = listFlag(opts.executions)?.map((id) => idArg(id, 'execution')) ?? null;
        if (ids && ids.length === 0) throw new SvcError(400, 'invalid_flag', '--executions needs at least one id.');
        // Ctrl-C stops the writing or the upload and removes the hidden local bundle (killed outright, it stayed behind).
        const stop = new AbortController();
        const release = onInterrupt(io, 'Stopping the cloud backup; the local bundle is removed…', () => stop.abort(promptCancelled('The cloud backup was interrupted; run it again for a complete copy.')));
        try {
          const r = await cloudBackup(ctx, ids, stop.signal);
          emit(io, r, () => `Uploaded ${bytes(r.byte_size)} (${r.file_count} files) to ${r.remote_path}\n  manifest sha256 ${r.manifest_sha256}`);
        } finally {
          release();
        }
      }),
    );
}
