/**
 * The folder channel: the report bundle written into the destination
 * directory atomically (a temporary file, then a hard link to the final name,
 * which never replaces an existing file, then the temporary removed). The
 * name carries the delivery id and key (key.ts), so a second attempt after a
 * crash finds its own file and does not write another, and a new delivery that
 * reuses an old id (after a restore or an erase) never takes an old report's
 * file for its own. Errors say <target>, never the path.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DeliveryFailure, fsProblem } from '../failure.js';
import { deliveryKey } from '../key.js';
import type { DeliveryRow } from '../repo.js';
import type { ChannelInput } from './types.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;

export function bundleFileName(delivery: Pick<DeliveryRow, 'id' | 'routine_id' | 'execution_id' | 'created_at_utc'>): string {
  return `svc-routine-${delivery.routine_id ?? 0}-execution-${delivery.execution_id}-delivery-${delivery.id}-${deliveryKey(delivery)}.json`;
}

/** Write `data` as `dir/name` without ever replacing a file; answers false when `name` was already there. */
export function writeNewFileAtomically(dir: string, name: string, data: string): boolean {
  const temp = path.join(dir, `.svc-${crypto.randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, Buffer.from(data, 'utf8'));
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.linkSync(temp, path.join(dir, name));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

export function checkDirectory(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch (err) {
    throw new DeliveryFailure(`Could not write into <target>: ${fsProblem(err)}.`);
  }
  if (!stat.isDirectory()) throw new DeliveryFailure('Could not write into <target>: it is not a directory.');
}

export async function sendFolder({ delivery, target, bundle }: ChannelInput): Promise<void> {
  const dir = target!.target;
  checkDirectory(dir);
  try {
    writeNewFileAtomically(dir, bundleFileName(delivery), JSON.stringify(bundle, null, 2) + '\n');
  } catch (err) {
    if (err instanceof DeliveryFailure) throw err;
    throw new DeliveryFailure(`Could not write into <target>: ${fsProblem(err)}.`);
  }
}
