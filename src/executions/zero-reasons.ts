import type { ZeroReason } from '../sources/types.js';

/** What each zero reason means, for reports and the search record. */
export const ZERO_REASON_MEANING: Record<ZeroReason, string> = {
  missing_key: 'The source needs an API key that is not stored; it was not asked.',
  retired: 'The service no longer exists; it was not asked.',
  window_unanswerable: 'The source cannot answer this date window (or answers only with one); it was not asked.',
  upstream_failure: 'The source did not answer usably (an HTTP error, a timeout or a refused connection) after retries.',
  parse_failure: 'The source answered something svc could not read.',
  rights_filtered: 'The source found records but withheld them for rights or licensing reasons.',
  records_unusable: 'The source answered entries, but none had what a record needs (a title).',
  entity_unsupported: 'The source cannot search for an author or entity.',
  answered_empty: 'The source answered and found nothing matching the query, keywords and window.',
  not_recorded: 'Nothing was observed about this source (the run ended before it answered).',
};
