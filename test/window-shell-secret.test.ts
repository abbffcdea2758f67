/**
 * The window shell's webhook-secret action: a page holding the session asks
 * for a webhook destination's signing secret (which no backend route ever
 * answers) and gets what `svc routine target secret` prints; without the
 * per-launch secret, from another origin, for a destination that is not a
 * webhook or does not exist, it is refused in the CLI's words.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './_setup.js';
import { backendRequest, exchange, launchShell, shellRequest, windowDirs, type Session, type ShellProcess } from './_window.js';

const dirs = windowDirs();
let shell: ShellProcess;
let session: Session;
let routineId = 0;

test.before(async () => {
  shell = await launchShell(dirs.shellEnv);
  session = await exchange(shell, shell.code);
  const origin = shell.line.renderer_origin;
  const routine = await backendRequest(session, 'POST', '/api/routines', {
    origin,
    body: { name: 'hooks', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'soil', max_results: 2, window_days: 7 }, is_active: false },
  });
  assert.is(routine.status, 201, routine.text);
  routineId = routine.json().id;
});
test.after(async () => {
  await shell?.stop();
  dirs.cleanup();
});

const addTarget = async (body: Record<string, unknown>) => {
  const r = await backendRequest(session, 'POST', `/api/routines/${routineId}/delivery-targets`, { origin: shell.line.renderer_origin, body });
  assert.is(r.status, 201, r.text);
  return r.json();
};
const ask = (body: unknown, secret: string | null = session.shell_secret, origin?: string | null) => shellRequest(shell, '/shell/webhook-secret', { method: 'POST', body, secret: secret ?? undefined, origin });

test('a page with the session gets the secret `svc routine target secret` prints; no backend answer carries it', async () => {
  const hook = await addTarget({ channel: 'webhook', target: 'http://127.0.0.1:9/hook' });
  const r = await ask({ routine_id: routineId, target_id: hook.id });
  assert.is(r.status, 200, r.text);
  const cli = await runCli(['--json', 'routine', 'target', 'secret', String(routineId), String(hook.id)], { env: dirs.shellEnv });
  assert.is(cli.code, 0, cli.stderr);
  assert.is(r.json().secret, JSON.parse(cli.stdout).secret);
  assert.match(r.json().secret, /^[0-9a-f]{64}$/);
  const listed = await backendRequest(session, 'GET', `/api/routines/${routineId}/delivery-targets`, { origin: shell.line.renderer_origin });
  assert.not.ok(listed.text.includes(r.json().secret), 'the targets route never answers the secret');
  assert.is(listed.json().targets[0].signed, true);
});

test('refused without the per-launch secret, from another origin, for a folder destination, for one that does not exist', async () => {
  const hook = (await backendRequest(session, 'GET', `/api/routines/${routineId}/delivery-targets`, { origin: shell.line.renderer_origin })).json().targets[0];
  const missing = await ask({ routine_id: routineId, target_id: hook.id }, null);
  assert.is(missing.status, 403);
  assert.is(missing.json().detail.reason, 'shell_secret_missing');
  const foreign = await ask({ routine_id: routineId, target_id: hook.id }, session.shell_secret, 'http://127.0.0.1:1');
  assert.is(foreign.status, 403);
  assert.is(foreign.json().detail.reason, 'origin_refused');
  assert.not.ok(missing.text.includes('sha256') || /[0-9a-f]{64}/.test(missing.text + foreign.text), 'no secret in a refusal');

  const folder = await addTarget({ channel: 'folder', target: dirs.root });
  const notWebhook = await ask({ routine_id: routineId, target_id: folder.id });
  assert.is(notWebhook.status, 422, notWebhook.text);
  assert.match(notWebhook.json().detail.message, /Only webhook destinations have a signing secret/);

  const unknown = await ask({ routine_id: routineId, target_id: 9999 });
  assert.is(unknown.status, 404, unknown.text);
  assert.is(unknown.json().detail.reason, 'delivery_target_not_found');

  const bad = await ask({ routine_id: 'one', target_id: hook.id });
  assert.is(bad.status, 400);
  assert.is(bad.json().detail.reason, 'invalid_body');
});

test.run();
