/**
 * A routine's schedule in words (src/scheduler/describe.ts): the common
 * shapes said plainly with their zone, anything else said field by field
 * rather than guessed; and the sentence every routine read carries, and the
 * calendar's next fires of one routine (?routine_id=), which the window's
 * routine page shows.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeSchedule } from '../src/scheduler/describe.js';
import { parseSchedule } from '../src/scheduler/cron.js';
import { startTestServer } from './_setup.js';

test('the common shapes in words, with the zone the fires are computed in', () => {
  const cases: [string, string][] = [
    ['CRON_TZ=Europe/Berlin 0 8 * * MON', 'every Monday at 08:00, Europe/Berlin'],
    ['0 8 * * 1', 'every Monday at 08:00, UTC'],
    ['* * * * *', 'every minute, UTC'],
    ['*/15 * * * *', 'every 15 minutes, UTC'],
    ['0 6 * * 1-5', 'every weekday (Monday to Friday) at 06:00, UTC'],
    ['0 0 * * 0,6', 'every Saturday and Sunday at 00:00, UTC'],
    ['@daily', 'every day at 00:00, UTC'],
    ['@weekly', 'every Sunday at 00:00, UTC'],
    ['@hourly', 'every hour, on the hour, UTC'],
    ['5 * * * *', 'every hour at :05, UTC'],
    ['0 */6 * * *', 'every 6 hours at :00, UTC'],
    ['30 7,19 * * *', 'every day at 07:30 and 19:30, UTC'],
    ['0 9 1 * *', 'on the 1st of every month at 09:00, UTC'],
    ['0 9 22 1 *', 'on the 22nd of January at 09:00, UTC'],
    ['0 8 * 3-5 *', 'every day in March, April and May at 08:00, UTC'],
    // Both day fields restricted: either fires (cron.ts's rule), and the sentence says so.
    ['0 8 15 * 1', 'on the 15th of every month, and also every Monday at 08:00, UTC'],
  ];
  for (const [cron, words] of cases) {
    parseSchedule(cron, new Date()); // every case is a schedule the service takes
    assert.is(describeSchedule(cron), words, cron);
  }
});

test('a shape without plain words is said field by field, never guessed', () => {
  assert.is(describeSchedule('0 8 L * *'), 'at minute 0, hour 8, day of month L, month *, day of week * (cron fields), UTC');
  assert.is(describeSchedule('CRON_TZ=Asia/Tokyo 0 8 * * 1#2'), 'at minute 0, hour 8, day of month *, month *, day of week 1#2 (cron fields), Asia/Tokyo');
});

test('a routine read says its schedule in words; the calendar answers one routine\'s next fires with ?routine_id=', async () => {
  const t = await startTestServer();
  try {
    const body = (name: string, cron: string) => ({ name, schedule_cron: cron, parameters: { repositories: ['arxiv'], query: 'graphs' } });
    const berlin = (await t.request('POST', '/api/routines', { body: body('berlin', 'CRON_TZ=Europe/Berlin 0 8 * * MON') })).json().id;
    const hourly = (await t.request('POST', '/api/routines', { body: body('hourly', '@hourly') })).json().id;
    const read = (await t.request('GET', `/api/routines/${berlin}`)).json();
    assert.is(read.schedule.sentence, 'every Monday at 08:00, Europe/Berlin');
    const listed = (await t.request('GET', '/api/routines')).json().routines.map((r: { schedule: { sentence: string } }) => r.schedule.sentence);
    assert.equal(listed.sort(), ['every Monday at 08:00, Europe/Berlin', 'every hour, on the hour, UTC']);

    const now = new Date();
    const to = new Date(now.getTime() + 40 * 86_400_000).toISOString();
    const all = (await t.request('GET', `/api/calendar/events?to=${to}`)).json().events;
    assert.ok(all.some((e: { routine_id: number }) => e.routine_id === hourly), 'without the filter every routine is there');
    const own = (await t.request('GET', `/api/calendar/events?to=${to}&routine_id=${berlin}`)).json().events;
    assert.ok(own.length >= 5);
    assert.ok(own.every((e: { routine_id: number }) => e.routine_id === berlin), 'only the routine asked for');
    const expected = parseSchedule('CRON_TZ=Europe/Berlin 0 8 * * MON', now).nextRuns(5, now).map((d) => d.toISOString());
    assert.equal(own.slice(0, 5).map((e: { start_utc: string }) => e.start_utc), expected);
    const bad = await t.request('GET', '/api/calendar/events?routine_id=x');
    assert.equal([bad.status, bad.json().detail[0].loc], [422, ['query', 'routine_id']]);
  } finally {
    await t.close();
  }
});

test.run();
