/**
 * The watchdog: findings about routines and sources, labelled broken or
 * unusual, each with what to do and the thresholds used, plus what could not
 * be judged. It is a list of producers, one small function per check, read
 * fresh from the stored history on every call. Muting acknowledges one
 * finding by key: it leaves the alarm total and, unless asked for, the list.
 */
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { deliveriesFailing } from './producers/deliveries.js';
import { missedFiresProducer } from './producers/missed-fires.js';
import { missingKey } from './producers/missing-key.js';
import { routineQuiet } from './producers/routine-quiet.js';
import { sourceFailing } from './producers/source-failing.js';
import * as repo from './repo.js';
import type { Producer } from './types.js';
import type { Finding, MarkedFinding, MuteAnswer, UnmuteAnswer, Unjudged, WatchdogAnswer } from '../wire/watchdog.js';

export const PRODUCERS: Producer[] = [sourceFailing, routineQuiet, missedFiresProducer, missingKey, deliveriesFailing];

export const MAX_KEY_LENGTH = 300;
export const MAX_NOTE_LENGTH = 500;


function collect(ctx: Context) {
  const mutes = new Map(repo.listMutes(ctx.db).map((m) => [m.finding_key, m]));
  const findings: MarkedFinding[] = [];
  const unjudged: Unjudged[] = [];
  let everyCheckRan = true;
  for (const producer of PRODUCERS) {
    let result;
    try {
      result = producer.run(ctx);
    } catch (err) {
      ctx.log.error(`watchdog check ${producer.check} failed`, { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
      unjudged.push({ check: producer.check, subject: null, reason: 'the check itself failed; see the service log' });
      everyCheckRan = false;
      continue;
    }
    unjudged.push(...result.unjudged);
    for (const f of result.findings) {
      const mute = mutes.get(f.key);
      findings.push({ ...f, muted: mute !== undefined, muted_at_utc: mute?.muted_at_utc ?? null, mute_note: mute?.note ?? null });
    }
  }
  // A mute acknowledges one finding: once that finding is no longer raised it is forgotten, so the
  // same key raised again later (a source broken again after recovering) alarms again. Only when
  // every check ran, so that a failing check never drops the mutes of the findings it would raise.
  if (everyCheckRan) {
    const raised = new Set(findings.map((f) => f.key));
    for (const key of mutes.keys()) if (!raised.has(key)) repo.deleteMute(ctx.db, key);
  }
  const rank = (f: Finding) => (f.label === 'broken' ? 0 : 1);
  findings.sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
  return { findings, unjudged };
}

export function watchdogFindings(ctx: Context, includeMuted = false): WatchdogAnswer {
  const { findings, unjudged } = collect(ctx);
  const alarms = findings.filter((f) => !f.muted);
  return {
    checked_at_utc: ctx.nowIso(),
    include_muted: includeMuted,
    alarm_total: alarms.length,
    by_label: { broken: alarms.filter((f) => f.label === 'broken').length, unusual: alarms.filter((f) => f.label === 'unusual').length },
    muted_total: findings.length - alarms.length,
    findings: includeMuted ? findings : alarms,
    could_not_judge: unjudged,
    checks: PRODUCERS.map((p) => ({ check: p.check, describes: p.describes })),
    method:
      'Read from the stored run history on every call; nothing is sent anywhere. broken: the routine or source cannot do its work as configured. unusual: it works, but not as it did. ' +
      'Each finding carries its thresholds and evidence, and since_utc: the earliest stored instant of that evidence (the first run of a failing streak or of the quiet runs, the first missed fire, the first failed delivery attempt), null when nothing stored dates it. A muted finding stays out of alarm_total (and out of findings unless include_muted=true) until unmuted or until it is no longer raised: ' +
      'a mute acknowledges one finding, so a finding that cleared and is raised again later, or whose key changes (a newer missed fire), alarms again.',
  };
}

export function muteFinding(ctx: Context, key: string, note: string | null): MuteAnswer {
  const finding = collect(ctx).findings.find((f) => f.key === key);
  if (!finding) throw notFound('finding_not_found', `No current watchdog finding has the key "${key.slice(0, 100)}"; GET /api/watchdog (or \`svc watchdog\`) lists them.`, { key: key.slice(0, 100) });
  const already = finding.muted;
  repo.insertMute(ctx.db, key, note, ctx.nowIso());
  const mute = repo.getMute(ctx.db, key)!;
  return { key, muted: true, already_muted: already, muted_at_utc: mute.muted_at_utc, note: mute.note, finding: { ...finding, muted: true, muted_at_utc: mute.muted_at_utc, mute_note: mute.note }, alarm_total: watchdogFindings(ctx).alarm_total };
}

export function unmuteFinding(ctx: Context, key: string): UnmuteAnswer {
  if (!repo.deleteMute(ctx.db, key)) throw notFound('mute_not_found', `No muted finding has the key "${key.slice(0, 100)}"; \`svc watchdog --muted\` lists the muted ones.`);
  const answer = watchdogFindings(ctx, true);
  return { key, muted: false, finding: answer.findings.find((f) => f.key === key) ?? null, alarm_total: answer.alarm_total };
}
