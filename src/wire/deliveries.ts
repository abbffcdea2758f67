/**
 * The JSON of delivery as the routes send it (spec 1, "Delivery"): a
 * routine's destinations, one delivery of a run's report to one of them, the
 * pages of deliveries of a run or a routine, and the delivery summary a
 * routine's read carries (document 3, get_routine). No destination's secret
 * is ever part of it. Declared once here, for the service and the window
 * alike; imports nothing but wire files.
 */

/** The four channels, each with an adapter. */
export type DeliveryChannel = 'email' | 'folder' | 'webhook' | 'feed';
/** A review-mode destination never sends on its own: its deliveries wait in awaiting_review. */
export type TargetMode = 'automatic' | 'review';
/** The six states of a delivery; awaiting_review leaves only by the deliver route (the only promotion). */
export type DeliveryState = 'queued' | 'awaiting_review' | 'delivering' | 'delivered' | 'failed' | 'skipped';
/** target: one of the routine's destinations; routine_email: the routine's email_enabled, to the email settings' recipient. */
export type DeliveryOrigin = 'target' | 'routine_email';

/** One destination of a routine (GET, POST and PUT …/delivery-targets). */
export interface Target {
  id: number;
  routine_id: number;
  channel: DeliveryChannel;
  enabled: boolean;
  mode: TargetMode;
  /** An address (email; empty: the email settings' recipient), a directory (folder, feed) or a URL (webhook). */
  target: string;
  /** Webhook destinations sign with a secret that never leaves the server (`svc routine target secret` prints it for the receiver). */
  signed: boolean;
  created_at_utc: string;
  updated_at_utc: string;
}

/** GET /api/routines/{routine_id}/delivery-targets. */
export interface TargetList {
  routine_id: number;
  targets: Target[];
}

/** DELETE …/delivery-targets/{target_id}: what still waited to go to it was skipped. */
export interface TargetRemoved {
  id: number;
  routine_id: number;
  deleted: true;
  deliveries_skipped: number;
}

/** One delivery of a run's report to one destination; also the answer of deliver, retry and skip. */
export interface Delivery {
  id: number;
  routine_id: number | null;
  execution_id: number;
  /** null for a routine_email delivery, which has no destination of its own. */
  target_id: number | null;
  origin: DeliveryOrigin;
  channel: DeliveryChannel;
  mode: TargetMode;
  state: DeliveryState;
  attempts: number;
  /** The attempts a delivery gets before it is failed (the same for every delivery). */
  max_attempts: number;
  /** Never names the destination: <target>, <address>, or a webhook's exception class or HTTP status. */
  last_error: string | null;
  /** Only while queued: when its next attempt is due. */
  next_attempt_at_utc: string | null;
  created_at_utc: string;
  updated_at_utc: string;
  delivered_at_utc: string | null;
}

/** GET /api/executions/{exec_id}/deliveries. */
export interface ExecutionDeliveries {
  execution_id: number;
  deliveries: Delivery[];
}

/** GET /api/routines/{routine_id}/deliveries: newest first, with the optional state filter. */
export interface DeliveryPage {
  routine_id: number;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  deliveries: Delivery[];
}

/** The delivery summary of a routine's read: no address, directory or URL is ever part of it. */
export interface DeliverySummary {
  /** Enabled destinations per channel. */
  targets_by_channel: Record<DeliveryChannel, number>;
  enabled_target_count: number;
  awaiting_review: number;
  /** The routine's last delivery: every last_* field and target_id are null for a routine that has none. */
  last_state: DeliveryState | null;
  last_channel: DeliveryChannel | null;
  last_attempts: number | null;
  last_error: string | null;
  last_delivered_at_utc: string | null;
  target_id: number | null;
}

/** POST /api/settings/email/test: the message was handed to the mail server. */
export interface TestEmailSent {
  sent: true;
  message_id: string;
}
