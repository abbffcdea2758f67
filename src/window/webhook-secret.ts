/**
 * The signing secret of a webhook destination, shown to the person at the
 * window on request. No HTTP route answers it (spec 1: the secret never
 * travels through the API), so the shell — a local process of the same user,
 * like the CLI — asks the CLI itself: `svc --json routine target secret R T`,
 * with the window's environment (the same data directory). The shell keeps
 * away from the database; the CLI's own checks (no such routine, not a
 * webhook) come back as its refusal.
 */
import { execFile as nodeExecFile } from 'node:child_process';
import { SvcError } from '../errors.js';
import { SVC_BIN } from '../daemon/control.js';

export const SECRET_TIMEOUT_MS = 15_000;

export interface SecretAsk {
  routine_id: number;
  target_id: number;
}

const isId = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

/** The ids the page sent, checked before any process starts. */
export function secretAsk(body: unknown): SecretAsk {
  const b = (body ?? {}) as Record<string, unknown>;
  if (!isId(b.routine_id) || !isId(b.target_id)) throw new SvcError(400, 'invalid_body', 'The secret action takes {"routine_id": n, "target_id": n}: the routine and its webhook destination.');
  return { routine_id: b.routine_id, target_id: b.target_id };
}

/** The secret as `svc routine target secret` prints it; its refusal as the CLI gives it (not found, not a webhook). */
export function revealSecretThroughCli(env: Record<string, string | undefined>, ask: SecretAsk, execFile = nodeExecFile): Promise<{ secret: string }> {
  const args = [SVC_BIN, '--json', 'routine', 'target', 'secret', String(ask.routine_id), String(ask.target_id)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: env as NodeJS.ProcessEnv, timeout: SECRET_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      let answer: { secret?: unknown; error?: unknown; message?: unknown } | null = null;
      try {
        answer = JSON.parse(String(stdout));
      } catch {
        answer = null;
      }
      if (!err && typeof answer?.secret === 'string') return resolve({ secret: answer.secret });
      if (answer && typeof answer.error === 'string' && typeof answer.message === 'string') {
        const status = /not_found$/.test(answer.error) ? 404 : 422;
        return reject(new SvcError(status, answer.error, answer.message));
      }
      reject(new SvcError(500, 'secret_unavailable', `svc routine target secret did not answer${err ? ` (${err.message.split('\n')[0]})` : ''}.`));
    });
  });
}
