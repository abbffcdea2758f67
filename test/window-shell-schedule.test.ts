/**
 * The schedule preview shell action of `svc window` (a real process): a page
 * holding the session sends a cron expression and a zone and gets back the
 * expression a routine would store, the sentence, the next five fires — the
 * service's own schedule code — or the service's refusal in the words the
 * routes answer with. Behind the same Origin and per-launch secret as every
 * shell action.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exchange, launchShell, shellRequest, windowDirs, backendRequest, type ShellProcess, type Session } from './_window.js';
import { parseSchedule } from '../src/scheduler/cron.js';

let shell: ShellProcess;
let session: Session;
const dirs = windowDirs();

test.before(async () => {
  shell = await launchShell(dirs.shellEnv);
  session = await exchange(shell, shell.code);
});
test.after(async () => {
  await shell?.stop();
  dirs.cleanup();
});

const preview = (body: unknown, secret = session.shell_secret, origin?: string | null) => shellRequest(shell, '/shell/schedule-preview', { method: 'POST', body, secret, origin });

test('a cron and a zone: the stored expression, the sentence and the next five fires as the service computes them', async () => {
  const before = new Date();
  const r = await preview({ cron: '0 8 * * MON', timezone: 'Europe/Berlin' });
  assert.is(r.status, 200, r.text);
  const answer = r.json();
  assert.equal([answer.expression, answer.sentence, answer.timezone, answer.refusal], ['CRON_TZ=Europe/Berlin 0 8 * * MON', 'every Monday at 08:00, Europe/Berlin', 'Europe/Berlin', null]);
  assert.equal(answer.next_fires, parseSchedule(answer.expression, before).nextRuns(5, before).map((d) => d.toISOString()));
  const utc = (await preview({ cron: '*/15 * * * *', timezone: 'UTC' })).json();
  assert.equal([utc.expression, utc.sentence, utc.next_fires.length], ['*/15 * * * *', 'every 15 minutes, UTC', 5]);
});

test('a schedule the service refuses: its reason and the same words POST /api/routines answers beside schedule_cron', async () => {
  for (const cron of ['0 8 * *', '0 0 30 2 *', '0 25 * * *']) {
    const answer = (await preview({ cron, timezone: null })).json();
    assert.equal([answer.sentence, answer.next_fires], [null, []], cron);
    assert.is(answer.refusal.reason, 'cron_invalid');
    const refused = await backendRequest(session, 'POST', '/api/routines', { body: { name: 'x', schedule_cron: cron, parameters: { repositories: ['arxiv'], query: 'q' } } });
    assert.is(refused.status, 422);
    const item = refused.json().detail.find((i: { loc: string[] }) => i.loc.join('.') === 'body.schedule_cron');
    assert.is(answer.refusal.message, item.msg, 'the words of the service');
  }
  const zone = (await preview({ cron: '0 8 * * *', timezone: 'Mars/Olympus' })).json();
  assert.match(zone.refusal.message, 'Unknown time zone "Mars/Olympus"');
});

test('only a page of this window with the session may ask: no secret, a foreign origin, a body that is not the preview\'s', async () => {
  assert.equal([(await preview({ cron: '* * * * *' }, '')).status, (await preview({ cron: '* * * * *' }, '')).json().detail.reason], [403, 'shell_secret_missing']);
  const foreign = await preview({ cron: '* * * * *' }, session.shell_secret, 'http://127.0.0.1:1');
  assert.equal([foreign.status, foreign.json().detail.reason], [403, 'origin_refused']);
  const bad = await preview({ cron: 5 });
  assert.equal([bad.status, bad.json().detail.reason], [400, 'invalid_body']);
});

test.run();
