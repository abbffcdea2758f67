/**
 * What became of a run's report, and where a routine's reports go, in words
 * for `svc routine run` and `svc routine show`. Destinations are shown to
 * their owner on their own terminal (as `svc routine target list` does);
 * delivery errors already carry placeholders, never the destination.
 */
import type { DeliveryView } from '../../src/delivery/service.js';
import type { TargetView } from '../../src/delivery/targets.js';
import { utcMinute } from '../lib/dates.js';
import { count, oneLine } from '../lib/words.js';

const when = (iso: string) => `${utcMinute(iso)} UTC`;

/** A stored error is a sentence ending in a full stop; inside a longer line it loses it (no ".;" or ".."). */
export const errorClause = (error: string) => error.replace(/\.+$/, '');

export function destinationOf(d: Pick<DeliveryView, 'target_id' | 'origin'>): string {
  return d.target_id !== null ? `destination ${d.target_id}` : d.origin === 'routine_email' ? 'the routine email (email settings recipient)' : 'a removed destination';
}

/** Its destination was removed: release or retry can only fail it, skip clears it. */
export const destinationGone = (d: Pick<DeliveryView, 'target_id' | 'origin'>) => d.target_id === null && d.origin !== 'routine_email';

/** One delivery's outcome in one line. */
export function deliveryOutcome(d: DeliveryView): string {
  const tries = count(d.attempts, 'attempt');
  if (destinationGone(d) && (d.state === 'awaiting_review' || d.state === 'queued' || d.state === 'failed'))
    return `  delivery ${d.id}  ${d.channel} to ${destinationOf(d)}: ${d.state.replace('_', ' ')}, and it cannot be sent any more: \`svc deliveries skip ${d.id} --yes\` clears it`;
  const what = {
    delivered: `delivered${d.delivered_at_utc ? ` ${when(d.delivered_at_utc)}` : ''}`,
    awaiting_review: `awaiting review: sent only after \`svc deliveries release ${d.id}\``,
    queued: d.last_error
      ? `not delivered yet (${tries} of ${d.max_attempts}): ${errorClause(d.last_error)}; a running svc server or daemon tries again ${d.next_attempt_at_utc ? `at ${when(d.next_attempt_at_utc)}` : 'soon'}`
      : 'queued: a running svc server or daemon sends it',
    delivering: 'being delivered now',
    failed: `failed after ${tries}: ${d.last_error ? errorClause(d.last_error) : 'no error recorded'}; \`svc deliveries retry ${d.id}\` tries again`,
    skipped: 'skipped',
  }[d.state];
  // The error quotes what a destination answered: it stays on its line.
  return oneLine(`  delivery ${d.id}  ${d.channel} to ${destinationOf(d)}: ${what}`);
}

/**
 * The deliveries block after a routine run. `runStatus` matters because only a
 * completed run is delivered; `targets` says why there is nothing to deliver.
 */
export function runDeliveriesText(routineId: number, runStatus: string, deliveries: DeliveryView[], targets: TargetView[], emailEnabled: boolean): string {
  if (deliveries.length) return ['Deliveries:', ...deliveries.map(deliveryOutcome)].join('\n');
  if (runStatus !== 'completed') return `Deliveries: none (only a completed run's report is delivered).`;
  if (!targets.length && !emailEnabled) return `Deliveries: none (routine ${routineId} has no delivery destination; add one with \`svc routine target add ${routineId}\`).`;
  if (!targets.some((t) => t.enabled)) return `Deliveries: none (every destination of routine ${routineId} is disabled; \`svc routine target list ${routineId}\`).`;
  return 'Deliveries: none were created for this run.';
}

/**
 * What became of the last run's report, and what waits for review across runs,
 * for `svc routine show` (the read's delivery_summary in words, per delivery).
 */
export function lastReportText(routineId: number, lastRun: number | null, deliveries: DeliveryView[], awaitingReview: number): string[] {
  const lines = lastRun !== null && deliveries.length ? [`  report of run ${lastRun}`, ...deliveries.map((d) => `  ${deliveryOutcome(d)}`)] : [];
  const waitingHere = deliveries.filter((d) => d.state === 'awaiting_review').length;
  if (awaitingReview > waitingHere)
    lines.push(`  awaiting review  ${count(awaitingReview, 'delivery', 'deliveries')} in all (\`svc deliveries list --routine ${routineId} --state awaiting_review\`)`);
  return lines;
}

/** The destinations block of `svc routine show`. */
export function destinationsText(targets: TargetView[], emailEnabled: boolean, emailIssue: (target: string) => string | null = () => null): string[] {
  const issue = (target: string) => {
    const text = emailIssue(target);
    return text ? `\n      (${text})` : '';
  };
  const lines = targets.map(
    (t) => `    ${t.id}  ${t.channel}  ${t.target || '(email settings recipient)'}  ${t.mode}${t.enabled ? '' : ', disabled'}${t.channel === 'email' && t.enabled ? issue(t.target) : ''}`,
  );
  // email_enabled sends to the email settings' recipient only when no enabled email destination exists.
  if (emailEnabled && !targets.some((t) => t.channel === 'email' && t.enabled)) lines.push(`    -  email  (email settings recipient)  automatic  [email_enabled]${issue('')}`);
  return lines.length ? lines : ['    none: reports stay in the reports folder (`svc routine target add` adds one)'];
}
