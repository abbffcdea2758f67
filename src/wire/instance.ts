/**
 * The identity of the serving process that a single-execution read and the
 * health read carry (spec 1, "Execution"), so a client can tell it still
 * talks to the instance it expects. Declared once here, for the service and
 * the window alike; imports nothing.
 */

export interface RuntimeIdentity {
  contract_version: 1;
  /** Random (UUID4), stable within one serving process, new after a restart. */
  runtime_id: string;
  schema_version: number | null;
  corpus_id: null;
  build_id: null;
}
