/**
 * The runtime identity carried by health and single-execution reads, and the
 * expected_runtime_id rule that lets a client make sure it still talks to the
 * same serving process: malformed or empty → 422, a different valid id → 409
 * instance_mismatch (checked before any database work or lookup).
 */
import { SvcError, invalid } from '../errors.js';
import { isUuid4 } from '../random.js';

import type { RuntimeIdentity } from '../wire/instance.js';

export function identityOf(runtimeId: string, schemaVersion: number | null): RuntimeIdentity {
  return { contract_version: 1, runtime_id: runtimeId, schema_version: schemaVersion, corpus_id: null, build_id: null };
}

/** Apply the rule to the query's expected_runtime_id values (none means no expectation). */
export function checkExpectedRuntime(values: string[], actualRuntimeId: string): void {
  if (values.length === 0) return;
  if (values.length > 1) throw invalid(['query', 'expected_runtime_id'], 'expected_runtime_id may be given once', 'repeated', values);
  const expected = values[0]!;
  if (!isUuid4(expected)) {
    throw invalid(['query', 'expected_runtime_id'], 'expected_runtime_id must be a canonical lowercase UUID4', 'uuid_parsing', expected);
  }
  if (expected !== actualRuntimeId) {
    throw new SvcError(409, 'instance_mismatch', 'This server is not the instance you expected: it restarted or another one answers on this port.', {
      code: 'instance_mismatch',
      expected_runtime_id: expected,
      actual_runtime_id: actualRuntimeId,
    });
  }
}
