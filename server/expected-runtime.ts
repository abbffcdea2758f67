import type { H3Event } from 'h3';
import { checkExpectedRuntime } from '../src/runtime/runtime-identity.js';
import { queryOf } from './body.js';

/** The expected_runtime_id rule for any route that offers it; call it first. */
export function requireExpectedRuntime(event: H3Event, runtimeId: string): void {
  checkExpectedRuntime(queryOf(event).getAll('expected_runtime_id'), runtimeId);
}
