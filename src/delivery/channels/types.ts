import type { Context } from '../../context.js';
import type { ReportBundle } from '../bundle.js';
import type { DeliveryRow, TargetRow } from '../repo.js';

export interface ChannelInput {
  ctx: Context;
  delivery: DeliveryRow;
  /** Null for the routine's own email (email_enabled with no email destination). */
  target: TargetRow | null;
  bundle: ReportBundle;
  /** Lines the routine's settings add to a digest (AI summary state). */
  extra: string[];
}

/** Sends one delivery; throws DeliveryFailure with a destination-free message. */
export type ChannelSend = (input: ChannelInput) => Promise<void>;
