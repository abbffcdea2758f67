/**
 * The JSON of an execution's record as the routes send it: so far the trace
 * of one HTTP exchange with a source, as the search record lists them.
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */

/** One HTTP exchange with a source, any key in its address replaced by ***. */
export interface HttpTrace {
  method: string;
  url: string;
  status: number | null;
  ms: number;
  bytes: number;
  attempt: number;
  error?: string;
  retry_after_ms?: number;
}
