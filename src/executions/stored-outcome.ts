/**
 * A source's stored outcome (execution_sources.outcome_json, written by the
 * runner) read back as the search record uses it. The JSON is parsed against
 * this shape, not cast: the record's fields are typed by src/wire/executions.ts,
 * so a stored field that no longer fits it is caught here, not sent on.
 * Fields added after the first runs (caps) are optional; older runs have none.
 */
import * as v from 'valibot';

const nullableString = v.nullable(v.string());
const nullableNumber = v.nullable(v.number());
const range = v.object({ from: nullableString, to: nullableString });

const Trace = v.object({
  method: v.string(),
  url: v.string(),
  status: nullableNumber,
  ms: v.number(),
  bytes: v.number(),
  attempt: v.number(),
  error: v.optional(v.string()),
  retry_after_ms: v.optional(v.number()),
});

const CapNote = v.object({
  record: v.string(),
  field: v.string(),
  action: v.picklist(['cut', 'left_out']),
  cap: v.number(),
  unit: v.picklist(['bytes', 'names', 'items']),
  had: v.number(),
  count: v.number(),
});

const StoredOutcome = v.object({
  evidence: v.object({
    http_status: v.optional(nullableNumber),
    exception_class: v.optional(v.string()),
    received: v.number(),
    unusable: v.number(),
    filtered_out: v.number(),
    rights_filtered: v.number(),
    total_reported: v.optional(v.number()),
    retry_after_ms: v.optional(v.number()),
    scan_limit_reached: v.optional(v.boolean()),
  }),
  request: v.object({
    query: v.string(),
    keywords: v.array(v.string()),
    date_from: nullableString,
    date_to: nullableString,
    max_results: v.number(),
    author: nullableString,
    base_url: v.string(),
    key: v.picklist(['ephemeral', 'stored', 'none']),
  }),
  window: v.object({ asked: v.nullable(range), answered: v.nullable(range), support: nullableString }),
  caps: v.optional(v.object({ page_bytes: nullableNumber, cut: v.array(CapNote), cut_total: v.number() })),
  partialFailure: v.nullable(v.object({ exception_class: v.string(), http_status: nullableNumber, message: v.string() })),
  traces: v.array(Trace),
});

export type StoredOutcome = v.InferOutput<typeof StoredOutcome>;

/**
 * The outcome of one source row, null when none was stored (the source was never asked).
 * @throws Error naming the first field that does not fit, when the stored JSON is not this shape.
 */
export function readStoredOutcome(json: string | null): StoredOutcome | null {
  if (!json) return null;
  const parsed = v.safeParse(StoredOutcome, JSON.parse(json));
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  throw new Error(`stored source outcome does not fit its shape at ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
}
