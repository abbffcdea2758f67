import type { ZeroReason } from '../sources/types.js';

/** What each zero reason means, for reports and the search record. */
export const ZERO_REASON_MEANING: Record<ZeroReason, string> = {
  missing_key: 'The source needs an API key that is not stored; it was not asked.',
  retired: 'The service no longer exists; it was not asked.',
  window_unanswerable: 'The source cannot answer this date window (or answers only with one); it was not asked.',
  upstream_failure: 'The source did not answer usably: an HTTP error, a timeout, a refused connection or no network at all (the message says which; only a failure another attempt may fix is retried).',
  parse_failure: 'The source answered something svc could not read.',
  rights_filtered: 'The source found records but withheld them for rights or licensing reasons.',
  records_unusable: 'The source answered entries, but none had what a record needs (a title).',
  entity_unsupported: 'The source cannot search for an author or entity.',
  answered_empty: 'The source answered and found nothing matching the query, keywords and window.',
  not_recorded: 'Nothing was observed about this source (the run ended before it answered).',
};

/**
 * What to show for a source that gave nothing. not_recorded means no reason was
 * observed, and the spec says it is never rendered as a reason: the source's
 * state is shown instead (cancelled or interrupted before it answered).
 */
export function nothingReason(reason: string | null | undefined, status?: string | null, cancelled?: boolean): string {
  if (reason && reason !== 'not_recorded') return reason;
  if (cancelled || status === 'cancelled') return 'cancelled before it answered';
  if (status === 'interrupted') return 'interrupted before it answered';
  if (status === 'pending' || status === 'running') return 'not answered yet';
  return 'no reason observed';
}

/** A zero reason that may be rendered as the reason (every one but not_recorded). */
export const isRenderedReason = (reason: string | null | undefined): reason is ZeroReason => !!reason && reason !== 'not_recorded';
