import type { Command } from 'commander';
import type { Io } from '../lib/io.js';
import { buildDeliveries } from './deliveries.js';

/** `svc deliver` is `svc deliveries` under the name issue 10 and svc-deliver(1) use. */
export function register(program: Command, io: Io): void {
  buildDeliveries(program.command('deliver').description('same as svc deliveries'), io);
}
