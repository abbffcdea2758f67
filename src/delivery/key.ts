/**
 * The identity of one delivery beyond its id. Delivery ids are SQLite row ids:
 * a restore of an older backup or an erase of executions hands the same ids out
 * again, so an id alone would make a new report look like one a folder, a feed,
 * a mail client or a webhook receiver already has (and the folder and feed
 * channels would then skip it as "already written"). The key mixes the id with
 * the execution and the instant the delivery was created: the same for every
 * attempt of one delivery (a repeat after a crash is still recognised), new for
 * a new delivery that happens to reuse an id.
 */
import crypto from 'node:crypto';
import type { DeliveryRow } from './repo.js';

export function deliveryKey(delivery: Pick<DeliveryRow, 'id' | 'execution_id' | 'created_at_utc'>): string {
  return crypto.createHash('sha256').update(`svc-delivery|${delivery.id}|${delivery.execution_id}|${delivery.created_at_utc}`).digest('hex').slice(0, 16);
}
