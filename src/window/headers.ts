/**
 * The headers of every answer of the renderer server. The page's
 * Content-Security-Policy lets it load only its own files and talk only to
 * itself and the backend: the current backend's origin plus the origin the
 * daemon would have, so moving from a fallback to the daemon needs no reload.
 * No inline script or style is allowed anywhere.
 */
export function contentSecurityPolicy(backendOrigins: string[]): string {
  const connect = ["'self'", ...new Set(backendOrigins)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** On every answer: no type sniffing, no referrer, nothing embeddable by another origin. */
export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

export function htmlHeaders(backendOrigins: string[]): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': contentSecurityPolicy(backendOrigins),
    'cross-origin-opener-policy': 'same-origin',
  };
}

export const JSON_HEADERS: Record<string, string> = { ...COMMON_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' };
