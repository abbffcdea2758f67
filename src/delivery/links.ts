/**
 * The signed link to a delivery's bundle (spec 1 "Authentication"): an
 * HMAC-SHA256 over the delivery id and an expiry, keyed with the destination's
 * own secret, valid 24 hours, carried in the query as `expires` and
 * `signature`. The base URL is this process's server when it serves, else the
 * published port of the running server, else the configured port.
 */
import type { Context } from '../context.js';
import { signDeliveryLink } from '../runtime/signing.js';
import { readPublishedPort } from '../runtime/token.js';
import { getDelivery, getTarget } from './repo.js';

export const BUNDLE_PATH = '/api/deliveries/{delivery_id}/bundle';
const DEFAULT_PORT = 8742;

interface ServingPort {
  /** The bound port of this process's server (0 or undefined until it listens). */
  port: () => number | undefined;
}

/** The server of this process tells the delivery code its port (startup task). */
export function servingPort(ctx: Context): ServingPort {
  return ctx.service<ServingPort>('delivery:serving-port', () => ({ port: () => undefined }));
}

export function baseUrl(ctx: Context): string {
  const port = (servingPort(ctx).port() || readPublishedPort(ctx.paths)) ?? ctx.config.port ?? DEFAULT_PORT;
  return `http://127.0.0.1:${port}`;
}

export function signedBundleLink(ctx: Context, deliveryId: number, secret: string): { url: string; expires_at_utc: string } {
  const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000);
  const { expires, signature } = signDeliveryLink(secret, deliveryId, nowSeconds);
  return {
    url: `${baseUrl(ctx)}${BUNDLE_PATH.replace('{delivery_id}', String(deliveryId))}?expires=${expires}&signature=${signature}`,
    expires_at_utc: new Date(expires * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** The guard's secret for a bundle link: only a webhook delivery whose destination still exists has one. */
export function bundleSecretFor(ctx: Context, rawId: string | undefined): string | undefined {
  if (!rawId || !/^[1-9]\d{0,14}$/.test(rawId)) return undefined;
  const delivery = getDelivery(ctx.db, Number(rawId));
  if (!delivery || delivery.channel !== 'webhook' || delivery.target_id === null) return undefined;
  return getTarget(ctx.db, delivery.target_id)?.secret ?? undefined;
}
