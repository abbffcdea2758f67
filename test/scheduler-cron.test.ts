import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CronSyntaxError, MAX_CRON_LENGTH, parseSchedule } from '../src/scheduler/cron.js';
import { dueFires } from '../src/scheduler/catch-up.js';

const NOW = new Date('2026-01-05T12:00:00Z');

function brute(expr: string, after: Date, until: Date) {
  const s = parseSchedule(expr, after);
  let count = 0;
  let first: Date | null = null;
  let last: Date | null = null;
  for (let t = s.nextAfter(after); t && t <= until; t = s.nextAfter(t)) {
    count++;
    first ??= t;
    last = t;
  }
  return { count, first: first?.toISOString() ?? null, last: last?.toISOString() ?? null };
}

test('the dialect: five fields, nicknames, names, CRON_TZ; UTC by default', () => {
  assert.equal(parseSchedule('0 6 * * *', NOW).nextRuns(2, NOW).map((d) => d.toISOString()), ['2026-01-06T06:00:00.000Z', '2026-01-07T06:00:00.000Z']);
  assert.is(parseSchedule('@daily', NOW).nextAfter(NOW)!.toISOString(), '2026-01-06T00:00:00.000Z');
  assert.is(parseSchedule('@HOURLY', NOW).nextAfter(NOW)!.toISOString(), '2026-01-05T13:00:00.000Z');
  assert.is(parseSchedule('0 9 * * MON-FRI', NOW).nextAfter(new Date('2026-01-09T10:00:00Z'))!.toISOString(), '2026-01-12T09:00:00.000Z');
  const berlin = parseSchedule('CRON_TZ=Europe/Berlin 0 6 * * *', NOW);
  assert.is(berlin.timezone, 'Europe/Berlin');
  assert.is(berlin.nextAfter(NOW)!.toISOString(), '2026-01-06T05:00:00.000Z');
  assert.is(berlin.nextAfter(new Date('2026-07-01T00:00:00Z'))!.toISOString(), '2026-07-01T04:00:00.000Z');
  assert.is(parseSchedule('0 0 ? * *', NOW).nextAfter(NOW)!.toISOString(), '2026-01-06T00:00:00.000Z', '? is *');
});

test('DST in a CRON_TZ zone: a skipped time fires right after the jump, a doubled time fires once (as svc-routine(1) says)', () => {
  const s = parseSchedule('CRON_TZ=Europe/Berlin 30 2 * * *', NOW);
  const iso = (from: string) => s.nextRuns(3, new Date(from)).map((d) => d.toISOString());
  // 2026-03-29: 02:00 CET jumps to 03:00 CEST, so 02:30 never happens.
  assert.equal(iso('2026-03-27T12:00:00Z'), ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  // 2026-10-25: 03:00 CEST goes back to 02:00 CET, so 02:30 happens twice.
  assert.equal(iso('2026-10-23T12:00:00Z'), ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
});

test('an invalid expression says what is wrong', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['0 0 6 * * *', /six|6 fields.*no seconds field/i],
    ['* * *', /3 fields.*five/],
    ['61 * * * *', /minute.*61|61.*minute/i],
    ['@reboot', /@reboot is not a time/],
    ['@sometimes', /Unknown nickname/],
    ['0 6 30 2 *', /never fires/],
    ['CRON_TZ=Mars/Olympus 0 6 * * *', /Unknown time zone "Mars\/Olympus"/],
    ['CRON_TZ=Europe/Berlin', /must be followed/],
    ['TZ=Europe/Berlin 0 6 * * *', /"TZ=" is not read here; only CRON_TZ=<zone> may come before the five fields/],
    ['cron_tz=Europe/Berlin 0 6 * * *', /"cron_tz=" is not read here/],
    ['0 6 * * * '.repeat(30), new RegExp(`at most ${MAX_CRON_LENGTH}`)],
  ];
  for (const [expr, message] of cases) {
    assert.throws(() => parseSchedule(expr, NOW), (e: unknown) => e instanceof CronSyntaxError && message.test(e.message), expr);
  }
});

test('countBetween is exact: the same as visiting every fire, DST days and partial days included', () => {
  const spans: [string, string][] = [
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['2026-01-01T13:17:00Z', '2026-01-09T04:02:00Z'],
    ['2026-03-25T10:00:00Z', '2026-04-02T10:00:00Z'], // Europe spring forward on 29 March
    ['2026-10-20T00:00:00Z', '2026-11-05T07:31:00Z'], // both zones fall back
    ['2026-02-27T23:59:59.999Z', '2026-03-03T00:00:00Z'],
  ];
  const exprs = ['*/10 * * * *', '*/7 1-3 * * *', '0 6 * * *', '30 2 * * *', '0 0 L * *', '15 */5 * * MON,FRI', '0 0 1 1 *'];
  for (const zone of [null, 'Europe/Berlin', 'America/New_York']) {
    for (const e of exprs) {
      const expr = zone ? `CRON_TZ=${zone} ${e}` : e;
      for (const [a, b] of spans) {
        const after = new Date(a);
        const until = new Date(b);
        const got = parseSchedule(expr, after).countBetween(after, until);
        const want = brute(expr, after, until);
        assert.equal({ count: got.count, first: got.first?.toISOString() ?? null, last: got.last?.toISOString() ?? null }, want, `${expr} over ${a}..${b}`);
      }
    }
  }
});

test('a month of every-minute fires is counted without visiting each', () => {
  const s = parseSchedule('* * * * *', NOW);
  const started = performance.now();
  const got = s.countBetween(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  assert.is(got.count, 365 * 1440);
  assert.is(got.last!.toISOString(), '2026-01-01T00:00:00.000Z');
  assert.ok(performance.now() - started < 1000, 'fast');
});

test('due fires split at the grace: late by less runs once, late by the grace or more is missed', () => {
  const s = parseSchedule('0 * * * *', NOW); // hourly
  const now = new Date('2026-01-05T12:00:00Z');
  // Due since 08:00: 08, 09, 10, 11 are late by >= 3600 s, 12:00 by 0 s.
  const due = dueFires(s, '2026-01-05T08:00:00.000Z', now, 3600);
  assert.equal(
    { missed: due.missed && { ...due.missed, first: due.missed.first.toISOString(), last: due.missed.last.toISOString() }, late: due.late?.count, next: due.next?.toISOString() },
    { missed: { count: 4, first: '2026-01-05T08:00:00.000Z', last: '2026-01-05T11:00:00.000Z' }, late: 1, next: '2026-01-05T13:00:00.000Z' },
  );
  // 11:00 seen at 11:59:59.999 is late by less than the grace; at 12:00:00.000 exactly it is missed.
  const before = dueFires(s, '2026-01-05T11:00:00.000Z', new Date('2026-01-05T11:59:59.999Z'), 3600);
  assert.is(before.missed, null);
  assert.is(before.late?.count, 1);
  const at = dueFires(s, '2026-01-05T11:00:00.000Z', new Date('2026-01-05T12:00:00.000Z'), 3600);
  assert.is(at.missed?.count, 1);
  assert.is(at.late?.count, 1, '12:00 itself is due and on time');
});

test('a schedule parsed once answers each later instant as a fresh parse would: upcoming fires move on once time passes the next one', () => {
  const expr = 'CRON_TZ=Europe/Berlin 15 */6 * * *';
  const fresh = Object.assign((at: string, n: number) => {
    // A whitespace variant is a different cache key, so this parse is the reference answer.
    const s = parseSchedule(expr.replace(' ', ' '.repeat(2 + fresh.calls++)), new Date(at));
    return s.nextRuns(n, new Date(at)).map((d) => d.toISOString());
  }, { calls: 0 });
  const cached = parseSchedule(expr, NOW);
  const iso = (at: string, n: number) => parseSchedule(expr, new Date(at)).nextRuns(n, new Date(at)).map((d) => d.toISOString());
  assert.is(parseSchedule(expr, NOW), cached, 'the same expression is parsed once');
  for (const [at, n] of [['2026-01-05T12:00:00Z', 3], ['2026-01-05T12:10:00Z', 3], ['2026-01-05T12:10:00Z', 2], ['2026-01-05T17:14:59.999Z', 5], ['2026-01-05T17:15:00Z', 3], ['2026-01-05T11:00:00Z', 3], ['2026-03-29T00:00:00Z', 4]] as const) {
    assert.equal(iso(at, n), fresh(at, n), `${n} fires after ${at}`);
  }
  assert.is(iso('2026-01-05T17:15:00Z', 1)[0], '2026-01-05T23:15:00.000Z', 'a fire is strictly after the instant asked');
  // What a parse refuses is refused every time, cached or not.
  for (let i = 0; i < 2; i++) assert.throws(() => parseSchedule('0 6 30 2 *', NOW), (e: unknown) => e instanceof CronSyntaxError && /never fires/.test(String(e)));
});

test.run();
