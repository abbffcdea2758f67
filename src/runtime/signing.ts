/**
 * Signed links: an HMAC-SHA256 over a delivery id and an expiry, keyed with the
 * destination's own secret, valid for at most 24 hours. The webhook bundle
 * route proves itself with one instead of the API token.
 */
import crypto from 'node:crypto';

export const SIGNATURE_LIFETIME_SECONDS = 24 * 60 * 60;

function mac(secret: string, deliveryId: string, expires: number): Buffer {
  return crypto.createHmac('sha256', secret).update(`${deliveryId}.${expires}`).digest();
}

/** The query a signed link carries: `expires` (Unix seconds) and `signature` (hex). */
export function signDeliveryLink(secret: string, deliveryId: string | number, nowSeconds: number): { expires: number; signature: string } {
  const expires = nowSeconds + SIGNATURE_LIFETIME_SECONDS;
  return { expires, signature: mac(secret, String(deliveryId), expires).toString('hex') };
}

export function verifyDeliveryLink(
  secret: string,
  deliveryId: string | number,
  expiresRaw: string | null,
  signatureRaw: string | null,
  nowSeconds: number,
): boolean {
  if (!expiresRaw || !signatureRaw || !/^\d{1,12}$/.test(expiresRaw) || !/^[0-9a-f]{64}$/.test(signatureRaw)) return false;
  const expires = Number(expiresRaw);
  if (expires < nowSeconds || expires - nowSeconds > SIGNATURE_LIFETIME_SECONDS) return false;
  return crypto.timingSafeEqual(mac(secret, String(deliveryId), expires), Buffer.from(signatureRaw, 'hex'));
}
