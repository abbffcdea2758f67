/**
 * Deliveries failing, per destination (or per routine for mail to the
 * settings recipient): broken when a delivery of the last 30 days failed for
 * good (backoff gave up), unusual while one is retrying after a failed
 * attempt. The key names the latest failing delivery, so a newer failure
 * alarms again after a mute. No address, directory or URL is shown: the
 * destination is named by its id and channel only.
 */
import type { Context } from '../../context.js';
import { listFailingDeliveries, type FailingDelivery } from '../../delivery/failing.js';
import type { Finding, Producer, ProducerResult } from '../types.js';

const WINDOW_DAYS = 30;

/** What fixes this channel's failures: the email settings, the directory, or the receiver and URL. */
function fixFor(d: FailingDelivery): string {
  const edit = (value: string) => (d.target_id !== null && d.routine_id !== null ? ` (\`svc routine target edit ${d.routine_id} ${d.target_id} --target ${value}\` changes it)` : '');
  if (d.channel === 'email') return `the mail server settings (\`svc settings get email\`, check with \`svc settings email test\`) or the address${edit('ADDRESS')}`;
  if (d.channel === 'webhook') return `the receiver, or the URL${edit('-')}`;
  return `the directory, which must exist and be writable${edit('DIR')}`;
}

/**
 * Names the deliveries by id, and only moves their state allows: a delivery
 * still retrying is retried by itself (retry refuses it until backoff gives
 * up), a failed one needs `svc deliveries retry`.
 */
function whatToDo(latest: FailingDelivery, failed: FailingDelivery[]): string {
  if (removed(latest)) {
    const add = latest.routine_id !== null ? ` (\`svc routine target add ${latest.routine_id}\` adds a new one)` : '';
    return `Its destination was removed, so no attempt can send it: \`svc deliveries skip ${latest.id} --yes\` clears it${add}.`;
  }
  const read = `Read the last error with \`svc deliveries show ${latest.id}\`, then fix ${fixFor(latest)}.`;
  if (failed.length) {
    const ids = failed.map((d) => d.id).sort((a, b) => a - b);
    const one = ids[ids.length - 1];
    return `${read} \`svc deliveries retry ${one}\` tries again${ids.length > 1 ? ` (failed: ${ids.join(', ')})` : ''}; \`svc deliveries skip ${one} --yes\` gives up on it.`;
  }
  const next = latest.next_attempt_at_utc ? ` at ${latest.next_attempt_at_utc}` : '';
  return `${read} A running svc server or daemon tries again by itself${next}; \`svc deliveries skip ${latest.id} --yes\` gives up on it.`;
}

/** A delivery whose destination was removed: no fix of settings or retry can send it. */
const removed = (d: FailingDelivery) => d.target_id === null && d.origin === 'target';

function findingFor(group: FailingDelivery[]): Finding {
  const latest = group.reduce((a, b) => (a.updated_at_utc >= b.updated_at_utc ? a : b));
  const failed = group.filter((d) => d.state === 'failed');
  const where =
    latest.target_id !== null ? `destination ${latest.target_id} (${latest.channel})` : removed(latest) ? `a removed ${latest.channel} destination` : 'the recipient of the email settings';
  const routine = latest.routine_name ? `routine "${latest.routine_name}"` : 'a routine that no longer exists';
  return {
    key: `delivery_failing:${latest.target_id ?? `${removed(latest) ? 'removed' : 'routine'}-${latest.routine_id}`}:${latest.id}`,
    check: 'deliveries_failing',
    label: failed.length ? 'broken' : 'unusual',
    subject: { kind: 'delivery', id: latest.target_id ?? latest.id, name: `${routine}, ${where}` },
    title: failed.length
      ? `${failed.length} deliver${failed.length === 1 ? 'y' : 'ies'} of ${routine} to ${where} failed for good`
      : `Deliveries of ${routine} to ${where} are failing and being retried`,
    since_utc: group.map((d) => d.first_failed_at_utc).filter((x): x is string => x !== null).sort()[0] ?? null,
    what_to_do: whatToDo(latest, failed),
    evidence: {
      failed: failed.length,
      retrying: group.length - failed.length,
      latest_delivery_id: latest.id,
      latest_execution_id: latest.execution_id,
      attempts: latest.attempts,
      last_error: latest.last_error,
      next_attempt_at_utc: latest.next_attempt_at_utc,
    },
    thresholds: { window_days: WINDOW_DAYS, broken_when: 'a delivery failed after its last attempt', unusual_when: 'a delivery is retrying after a failed attempt' },
  };
}

export const deliveriesFailing: Producer = {
  check: 'deliveries_failing',
  describes: `Deliveries of routine reports in the last ${WINDOW_DAYS} days: broken when one failed for good, unusual while one is retrying after a failed attempt.`,
  run(ctx: Context): ProducerResult {
    const since = new Date(ctx.clock.now().getTime() - WINDOW_DAYS * 86_400_000).toISOString();
    const groups = new Map<string, FailingDelivery[]>();
    for (const d of listFailingDeliveries(ctx, since)) {
      const key = d.target_id !== null ? `t${d.target_id}` : `${removed(d) ? 'x' : 'r'}${d.routine_id}`;
      groups.set(key, [...(groups.get(key) ?? []), d]);
    }
    return { findings: [...groups.values()].map(findingFor), unjudged: [] };
  },
};
