/**
 * The identity check of get_execution (document 3): with an expectation, ask
 * health with it first and require a matching identity, then send the same
 * expectation to the route; a missing or malformed identity is
 * identity_unavailable, another instance's is instance_mismatch, and the
 * content is discarded.
 */
import { McpToolError } from '../errors.js';

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function requireIdentity(answer: unknown, expected: string, what: string): void {
  const identity = (answer as { identity?: { runtime_id?: unknown } } | null)?.identity;
  const runtimeId = identity?.runtime_id;
  if (typeof runtimeId !== 'string' || !UUID4.test(runtimeId)) {
    throw new McpToolError('identity_unavailable', `The ${what} answer carries no usable runtime identity, so it cannot be tied to the expected instance.`, { expected_runtime_id: expected });
  }
  if (runtimeId !== expected) {
    throw new McpToolError('instance_mismatch', `The service answering is another instance (runtime ${runtimeId}), not ${expected}; its answer was discarded.`, { expected_runtime_id: expected, runtime_id: runtimeId });
  }
}
