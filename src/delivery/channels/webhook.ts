/**
 * The webhook channel: a JSON envelope POSTed to the destination URL, signed
 * with the destination's own secret (HMAC-SHA256 over "<timestamp>.<body>",
 * header X-Svc-Signature: sha256=<hex>), with a timeout and no redirects
 * followed. The envelope links to the signed bundle route. Errors carry the
 * exception class or the HTTP status only.
 */
import crypto from 'node:crypto';
import type { Context } from '../../context.js';
import { svcVersion } from '../../version.js';
import { DIGEST_PAPER_LIMIT, type ReportBundle } from '../bundle.js';
import { DeliveryFailure, errorClass } from '../failure.js';
import { signedBundleLink } from '../links.js';
import type { DeliveryRow } from '../repo.js';
import type { ChannelInput } from './types.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;

function followEnvelope(f: NonNullable<ReportBundle['follow']>) {
  const notices = f.events.map(({ kind, document_id, title, doi, notice_url, label, event_date, basis }) => ({ kind, document_id, title, doi, notice_url, label, event_date, basis }));
  return { profile_id: f.profile_id, profile_name: f.profile_name, mode: f.mode, checked: f.checked, failed: f.failed, notices };
}

export function webhookEnvelope(ctx: Context, delivery: DeliveryRow, bundle: ReportBundle, secret: string) {
  return {
    type: 'svc.delivery',
    version: 1,
    delivery_id: delivery.id,
    delivery_key: bundle.delivery_key,
    attempt: delivery.attempts,
    sent_at_utc: ctx.nowIso(),
    routine: bundle.routine,
    execution: bundle.execution,
    counts: bundle.counts,
    new_papers: bundle.new_papers.slice(0, DIGEST_PAPER_LIMIT).map(({ id, title, authors, year, venue, doi, url }) => ({ id, title, authors, year, venue, doi, url })),
    new_papers_truncated: bundle.new_papers.length > DIGEST_PAPER_LIMIT,
    // A routine following a profile for retractions: its news is the notices on the person's papers.
    ...(bundle.follow ? { follow: followEnvelope(bundle.follow) } : {}),
    bundle: signedBundleLink(ctx, delivery.id, secret),
  };
}

/** The signature header value a receiver recomputes: sha256=hex(HMAC-SHA256(secret, `${timestamp}.${body}`)). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return 'sha256=' + crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export async function sendWebhook({ ctx, delivery, target, bundle }: ChannelInput, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<void> {
  const secret = target!.secret;
  if (!secret) throw new DeliveryFailure('Webhook not sent: the destination has no signing secret (remove it and add it again).', false);
  const body = JSON.stringify(webhookEnvelope(ctx, delivery, bundle, secret));
  const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
  let response: Response;
  try {
    response = await ctx.fetch(target!.target, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': `svc/${svcVersion()}`,
        'x-svc-delivery': String(delivery.id),
        'x-svc-delivery-key': bundle.delivery_key,
        'x-svc-attempt': String(delivery.attempts),
        'x-svc-timestamp': String(timestamp),
        'x-svc-signature': webhookSignature(secret, timestamp, body),
      },
      body,
    });
  } catch (err) {
    throw new DeliveryFailure(`Webhook request failed (${errorClass(err)}).`);
  }
  await response.body?.cancel().catch(() => {});
  if (response.status >= 200 && response.status < 300) return;
  if (response.status === 0 || (response.status >= 300 && response.status < 400)) {
    throw new DeliveryFailure(`Webhook answered HTTP ${response.status || 'redirect'} (redirects are not followed).`);
  }
  throw new DeliveryFailure(`Webhook answered HTTP ${response.status}.`);
}
