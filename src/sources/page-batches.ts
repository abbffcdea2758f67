/**
 * A parsed page's records cut into batches for the trip back from the parse
 * worker. A message from a worker is deserialised on the event loop in one
 * piece: a page of 100 collaboration papers with 2,000 authors each took
 * 0.5 s of the main thread's CPU (2.9 s of wall time on a loaded machine),
 * during which /api/health answered nothing. The event loop takes the records
 * a batch at a time instead, asking for the next one after a turn (parse-page.ts),
 * so no more than about BATCH_JSON_CHARS of it is deserialised in one go.
 */

/** About this many characters of JSON of records a batch (a record over it travels alone; caps.ts bounds one at 4 MiB). */
export const BATCH_JSON_CHARS = 256 * 1024;

/**
 * The page without its records (`head`, records empty), and the records in order, in batches of
 * about `budget` characters of JSON each. A page without a records array is all head.
 */
export function splitRecords<T>(page: T, budget = BATCH_JSON_CHARS): { head: T; batches: unknown[][] } {
  const records = (page as { records?: unknown } | null)?.records;
  if (!Array.isArray(records) || records.length === 0) return { head: page, batches: [] };
  const batches: unknown[][] = [];
  let batch: unknown[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = JSON.stringify(record)?.length ?? 0;
    if (batch.length > 0 && bytes + size > budget) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(record);
    bytes += size;
  }
  batches.push(batch);
  return { head: { ...page, records: [] }, batches };
}
